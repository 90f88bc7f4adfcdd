"""The View API beyond the visibility matrix (that is ``test_s6_visibility.py``): every
viewer reads the same public facts, a seat's legal actions and their compact form, and
views are JSON-ready."""

from __future__ import annotations

import json
import random

from games.engine import Action, Deal, Rules, new_game
from games.engine.state import GameState
from games.engine.visibility import LEGAL_LIST_MAX


def _midgame() -> GameState:
    state = new_game(Rules(players=3), seed="views")
    rng = random.Random(5)
    while not state.discard and not state.is_over:
        seat = rng.choice(state.actors())
        state.apply_fast(seat, rng.choice(state.legal_fast(seat)))
    assert state.discard and state.stock
    return state


def test_public_facts_are_seen_by_all() -> None:
    s = _midgame()
    seen = [s.view(0), s.view(1), s.spectator_view()]
    for v in seen:
        assert v.trump_card == seen[0].trump_card is not None
        assert v.table == seen[0].table
        assert v.awaiting == s.awaiting() and v.actors == list(s.actors())
        assert v.places == s.places


def test_view_lists_the_viewers_legal_actions_only() -> None:
    s = new_game(
        Rules(),
        seed="legal",
        deal=Deal(
            hands=[["6S", "7S", "8S", "9S", "10S", "JS"], ["6H", "7H", "8H", "9H", "10H", "JH"]],
            trump="6D",
            stock=[],
            dealer=1,
            first_attacker=0,
        ),
    )
    assert "attack 6S" in s.view(0).legal and s.view(1).legal == []
    s.apply(0, Action.parse("attack 6S"))
    assert s.view(1).legal == ["take"]


def test_view_marks_the_cards_a_legal_action_uses() -> None:
    s = new_game(
        Rules(),
        seed="legal",
        deal=Deal(
            hands=[["6S", "6C", "9S"], ["7S", "7H", "AD"]],
            trump="6D",
            stock=["KC"],
            dealer=1,
            first_attacker=0,
        ),
    )
    s.apply(0, Action.parse("attack 6S"))
    v = s.view(1)
    assert v.legal_complete and v.legal == [str(a) for a in s.legal_actions(1)]
    assert v.legal_cards == ["7S", "AD"]  # 7♥ covers nothing, hand order kept
    assert s.view(0).legal_cards == ["6C"] and s.spectator_view().legal_cards == []


def test_the_legal_moves_come_structured() -> None:
    """``View.moves``: each legal action with its kind, cards, target and notation, so no page
    parses the notation back."""
    s = new_game(
        Rules(),
        seed="legal",
        deal=Deal(
            hands=[["6S", "6C", "9S"], ["7S", "7H", "AD"]],
            trump="6D",
            stock=["KC"],
            dealer=1,
            first_attacker=0,
        ),
    )
    assert [(m.kind, m.cards, m.target) for m in s.view(0).moves] == [
        ("attack", ("6S",), None),
        ("attack", ("6C",), None),
        ("attack", ("6S", "6C"), None),
        ("attack", ("9S",), None),
    ]
    s.apply(0, Action.parse("attack 6S"))
    moves = s.view(1).moves
    assert [m.notation for m in moves] == s.view(1).legal == ["cover 7S>6S", "cover AD>6S", "take"]
    assert (moves[1].kind, moves[1].cards, moves[1].target) == ("cover", ("AD",), "6S")
    take: dict[str, object] = {"kind": "take", "cards": [], "target": None, "notation": "take"}
    assert s.view(1).to_dict()["moves"][2] == take


def test_a_huge_legal_list_is_cut_to_the_actions_of_one_card() -> None:
    """A circle stage-2 lead from a big hand: a thousand combinations stay in
    ``legal_actions``, the view keeps the single cards and says it is incomplete."""
    leader = ["3S", "3C", "4S", "4C", "5S", "5C", "6S", "6C", "7S", "7C", "8S", "8C", "9H"]
    other = ["10S", "10C", "JS", "JC", "QS", "QC", "KS", "KC", "AS", "AC", "10H", "JH"]
    s = new_game(
        Rules.for_variant("circle", 2),
        seed="big",
        deal=Deal(hands=[leader, other], trump_suit="D", stage=2, first_attacker=0),
    )
    full = s.legal_actions(0)
    assert len(full) > LEGAL_LIST_MAX and Action.parse("attack 3S 3C 4S 4C 9H") in full
    v = s.view(0)
    assert not v.legal_complete
    assert sorted(v.legal) == sorted(str(a) for a in full if len(a.cards) <= 1)
    assert [m.notation for m in v.moves] == v.legal
    assert sorted(v.legal_cards) == sorted(leader)
    assert s.is_legal(0, Action.parse("attack 3S 3C 4S 4C 9H"))


def test_views_are_json_ready() -> None:
    s = _midgame()
    for v in (s.view(0), s.spectator_view(), s.full_view()):
        assert json.loads(json.dumps(v.to_dict()))["players"] == 3
