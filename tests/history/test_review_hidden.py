"""A review reads the reviewed player's information only: two games that differ only in cards
that player never saw get the same review, decision by decision (issue 20, §1).

The two deals swap a card the opponent holds (and never shows) with the stock's last card (never
drawn in the part of the game reviewed); the same actions replay in both. A review that looked at
the hands or the stock would see two different positions.
"""

from __future__ import annotations

import random

from games.bots.assess import assess_record_step, record_decisions
from games.engine import Deal, Event, GameRecord, Rules
from games.engine.cards import card_str, deck_cards
from tools.review_calibration import decide

RULES = Rules.for_variant("podkidnoy", players=2)
PREFIX = 24


def _deal(seed: int) -> Deal:
    cards = [card_str(c) for c in deck_cards(36, 0)]
    random.Random(seed).shuffle(cards)
    return Deal(hands=[cards[:6], cards[6:12]], trump=cards[12], stock=cards[13:], dealer=1)


def _play(deal: Deal, steps: int) -> GameRecord:
    """The first ``steps`` actions of a game of two ``medium`` bots on iteration budgets (no
    clock: the same game on a busy machine)."""
    record = GameRecord(RULES, "hidden", 1, deal=deal)
    state = record.start()
    history: list[Event] = []
    while not state.is_over and len(record.actions) < steps:
        seat = next(iter(state.awaiting()))
        legal = state.legal_actions(seat)
        action = decide("medium", state.view(seat), legal, f"h{len(record.actions)}", RULES, history)
        history.extend(state.apply(seat, action))
        record.actions.append((seat, str(action)))
    return record


def _twin(record: GameRecord) -> tuple[GameRecord, str, str]:
    """The same actions on a deal where an unseen card of seat 1 and the stock's last card swap."""
    deal = record.deal
    assert deal is not None and deal.hands is not None
    seen = " ".join(text for _, text in record.actions)
    hidden = [str(c) for c in deal.hands[1] if str(c) not in seen]
    bottom = str(deal.stock[-1])
    assert hidden and bottom not in seen
    x = hidden[0]
    hands = [list(deal.hands[0]), [bottom if c == x else c for c in deal.hands[1]]]
    stock = [*deal.stock[:-1], x]
    twin = Deal(hands=hands, trump=deal.trump, stock=stock, dealer=deal.dealer)
    return GameRecord(RULES, "hidden", 1, list(record.actions), deal=twin), x, bottom


def test_two_games_differing_only_in_cards_hidden_from_the_player_get_the_same_review() -> None:
    record = _play(_deal(11), PREFIX)
    twin, x, bottom = _twin(record)
    states_a, states_b = list(record.states()), list(twin.states())
    # The deals really differ, and seat 0 can tell them apart at no step.
    assert states_a[-1].hands[1] != states_b[-1].hands[1]
    assert len(states_a[-1].stock) >= 2  # the stock's last card was never drawn
    assert all(a.view(0) == b.view(0) for a, b in zip(states_a, states_b, strict=True))
    decisions = record_decisions(record, 0)
    assert decisions == record_decisions(twin, 0) and len(decisions) >= 4
    for index in decisions:
        a = assess_record_step(record, index, f"s{index}", iterations=150, time_ms=60_000)
        b = assess_record_step(twin, index, f"s{index}", iterations=150, time_ms=60_000)
        assert a == b, (index, x, bottom)


def test_a_review_that_could_see_the_hidden_cards_would_tell_the_twins_apart() -> None:
    """The twins are not trivially alike: the full states (what a clairvoyant review would read)
    differ at every step."""
    record = _play(_deal(11), PREFIX)
    twin, _x, _bottom = _twin(record)
    assert all(a.to_json() != b.to_json() for a, b in zip(record.states(), twin.states(), strict=True))
