"""The medium and strong bots: legal everywhere, blind to hidden cards, reproducible."""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from games.bots.budget import Budget
from games.bots.ismcts import STRONG_BUDGET, choose_strong, rewards
from games.bots.medium import choose_medium
from games.engine import Action, Deal, Event, Rules, new_game
from tests.engine.tables import TABLES

from .helpers import play


def _strong(view: object, legal: list[Action], seed: str, rules: Rules, history: list[Event]) -> Action:
    return choose_strong(view, legal, seed, rules=rules, history=history, budget=Budget(4, cpu_s=0.1))


def _medium(view: object, legal: list[Action], seed: str, rules: Rules, history: list[Event]) -> Action:
    return choose_medium(view, legal, seed, rules=rules, history=history, budget=Budget(4, cpu_s=0.1))


@pytest.mark.parametrize(("name", "rules"), TABLES, ids=[t[0] for t in TABLES])
def test_medium_plays_every_table_legally(name: str, rules: Rules) -> None:
    state, _ = play(rules, f"medium-{name}", _medium)
    assert state.result() is not None


@pytest.mark.parametrize(("name", "rules"), TABLES, ids=[t[0] for t in TABLES])
def test_strong_plays_every_table_legally(name: str, rules: Rules) -> None:
    state, _ = play(rules, f"strong-{name}", _strong)
    assert state.result() is not None


def _twin_positions() -> tuple[object, object, list[Action]]:
    """Two deals identical for seat 0 and different in seat 1's hand and the stock."""
    mine = ["6S", "8S", "JC", "QH", "7D", "AC"]
    theirs = ["7S", "9H", "10C", "KD", "6H", "8D"]
    stock = [
        "9S",
        "10S",
        "JS",
        "QS",
        "KS",
        "AS",
        "6C",
        "7C",
        "8C",
        "9C",
        "10H",
        "JH",
        "QC",
        "KC",
        "7H",
        "8H",
        "JD",
        "QD",
        "KH",
        "AH",
        "6D",
        "9D",
        "10D",
    ]
    trump = "AD"
    swapped_theirs = ["QS", "KS", "AS", "6C", "7C", "8C"]
    swapped_stock = [c for c in stock if c not in swapped_theirs] + theirs
    one = new_game(
        Rules(),
        seed="a",
        deal=Deal(hands=[mine, theirs], trump=trump, stock=stock, dealer=1, first_attacker=0),
    )
    two = new_game(
        Rules(),
        seed="b",
        deal=Deal(hands=[mine, swapped_theirs], trump=trump, stock=swapped_stock, dealer=1, first_attacker=0),
    )
    assert one.view(0) == two.view(0)
    assert one.hands[1] != two.hands[1]
    return one.view(0), two.view(0), one.legal_actions(0)


def test_bots_cannot_read_a_hidden_card() -> None:
    view_one, view_two, legal = _twin_positions()
    for bot in (
        partial(choose_strong, budget=Budget(60)),
        partial(choose_strong, budget=Budget(60), history=[]),
        partial(choose_medium, budget=Budget(60)),
    ):
        assert bot(view_one, legal, "same", rules=Rules()) == bot(view_two, legal, "same", rules=Rules())


def test_the_site_form_of_the_inputs_is_enough() -> None:
    """No rules (inferred from the view) and the history as stored event dicts."""
    rules = Rules.for_variant("perevodnoy", players=3)
    state = new_game(rules, seed="site")
    history: list[Event] = []
    for _ in range(12):
        seat = next(iter(state.awaiting()))
        action = choose_strong(
            state.view(seat),
            state.legal_actions(seat),
            "s",
            history=[e.to_dict() for e in history],
            budget=Budget(5),
        )
        history += state.apply(seat, action)


def test_a_decision_is_reproducible_from_its_seed() -> None:
    view, _, legal = _twin_positions()
    picks = {choose_strong(view, legal, "seed", budget=Budget(80)) for _ in range(3)}
    assert len(picks) == 1
    picks = {choose_medium(view, legal, "seed", budget=Budget(80)) for _ in range(3)}
    assert len(picks) == 1


def test_the_move_time_stays_under_its_cap() -> None:
    view, _, legal = _twin_positions()
    start = time.perf_counter()
    choose_strong(view, legal, "t", budget=replace(STRONG_BUDGET, cpu_s=0.05))
    assert time.perf_counter() - start < 0.5  # generous: CI machines are shared


def test_a_thrower_waits_while_the_defender_answers() -> None:
    state = new_game(
        Rules(players=3),
        seed="w",
        deal=Deal(
            hands=[
                ["6S", "7S", "8S", "9S", "10S", "JS"],
                ["6H", "7H", "8H", "9H", "10H", "JH"],
                ["6C", "7C", "8C", "9C", "10C", "JC"],
            ],
            trump="6D",
            stock=[],
            dealer=2,
            first_attacker=0,
        ),
    )
    state.apply(0, Action.parse("attack 6S"))
    assert 2 in state.actors() and 2 not in state.awaiting()
    assert str(choose_strong(state.view(2), state.legal_actions(2), "s", rules=state.rules)) == "pass"


def test_partners_share_their_reward() -> None:
    rules = Rules(players=4, teams=True)
    state, _ = play(rules, "teams", _medium)
    values = rewards(state)
    assert values[0] == values[2] and values[1] == values[3]
    assert sorted({values[0], values[1]}) in ([0.0, 1.0], [0.5])


def test_every_level_demands_a_redeal_for_a_lopsided_hand_without_trumps_only() -> None:
    """At a table with the redeal option, a seat awaited with five or six cards of one plain suit
    and at most one trump demands the redeal; with more trumps (or a long trump suit) it plays."""
    from games.bots import choose_action
    from games.bots.easy import REDEAL_MAX_TRUMPS
    from games.engine.cards import card_from_str, suit_of

    rules = Rules.for_variant("podkidnoy", players=2, redeal=True)
    seen = {True: 0, False: 0}
    for number in range(3000):
        state = new_game(rules, seed=f"redeal-{number}")
        seat = min(state.awaiting())
        legal = state.legal_actions(seat)
        if not any(a.kind == "redeal" for a in legal):
            continue
        view = state.view(seat)
        trump = "SCDH".index(str(view.trump_suit)[0])
        suits = [suit_of(card_from_str(code)) for code in view.hand]
        plain = [suits.count(suit) for suit in range(4) if suit != trump]
        trumps = suits.count(trump)
        weak = max(plain) >= 5 and trumps <= REDEAL_MAX_TRUMPS
        seen[weak] += 1
        for level in ("easy", "medium", "strong"):
            extra: dict[str, Any] = {"rules": rules, "history": []} if level != "easy" else {}
            action = choose_action(level, view, legal, f"redeal-{number}", **extra)
            assert (action.kind == "redeal") == weak, (level, number, [str(a) for a in legal])
    assert seen[True] and seen[False], seen
