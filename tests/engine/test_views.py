"""The visibility matrix of RULES.md §6, one test per row: everyone sees the trump
card, the counts, the table and whose turn it is; only the owner sees a hand; nobody
sees the stock's order or the discard's faces; the full view (after the game) shows all.

=========================  ==========  ==========  ==========
what                       own seat    spectator   full view
=========================  ==========  ==========  ==========
own hand                   yes         no          yes
another seat's hand        count       count       yes
stock order                count       count       yes
discard faces              count       count       yes
trump card, table, turn    yes         yes         yes
circle, drawn card         yes         yes         yes
=========================  ==========  ==========  ==========
"""

from __future__ import annotations

import json
import random

from games.engine import Action, Deal, Rules, new_game
from games.engine.state import GameState


def _midgame() -> GameState:
    state = new_game(Rules(players=3), seed="views")
    rng = random.Random(5)
    while not state.discard and not state.is_over:
        seat = rng.choice(state.actors())
        state.apply_fast(seat, rng.choice(state.legal_fast(seat)))
    assert state.discard and state.stock
    return state


def test_own_hand_is_visible_to_its_owner_only() -> None:
    s = _midgame()
    for seat in range(3):
        v = s.view(seat)
        assert v.hand and sorted(v.hand) == sorted(s.full_view().hands[seat])  # type: ignore[index]
        assert v.hands is None
    assert s.spectator_view().hand == []


def test_other_hands_show_only_counts() -> None:
    s = _midgame()
    v = s.view(0)
    text = json.dumps(v.to_dict())
    for other in (1, 2):
        for card in s.full_view().hands[other]:  # type: ignore[index]
            assert f'"{card}"' not in text.replace(json.dumps(v.table), "")
    assert v.hand_counts == [h.bit_count() for h in s.hands]


def test_the_stock_order_is_hidden() -> None:
    s = _midgame()
    for v in (s.view(0), s.spectator_view()):
        assert v.stock is None and v.stock_count == len(s.stock)


def test_the_discard_faces_are_hidden() -> None:
    s = _midgame()
    for v in (s.view(1), s.spectator_view()):
        assert v.discard is None and v.discard_count == s.discard.bit_count() > 0


def test_public_facts_are_seen_by_all() -> None:
    s = _midgame()
    seen = [s.view(0), s.view(1), s.spectator_view()]
    for v in seen:
        assert v.trump_card == seen[0].trump_card is not None
        assert v.table == seen[0].table
        assert v.awaiting == s.awaiting() and v.actors == list(s.actors())
        assert v.places == s.places


def test_full_view_shows_everything() -> None:
    s = _midgame()
    full = s.full_view()
    assert full.hands is not None and full.stock is not None and full.discard is not None
    assert len(full.stock) == len(s.stock)
    assert len(full.discard) == s.discard.bit_count()


def test_circle_cards_and_the_drawn_card_are_public() -> None:
    s = new_game(
        Rules.for_variant("circle", 2),
        seed="c",
        deal=Deal(circle=["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"], center="2D",
                  stock=["2C", "10S", "3C"], dealer=1),
    )
    v = s.spectator_view()
    assert v.stage == 1 and v.drawn == "10S" and "2C" in v.circle
    assert v.awaiting == {1: "beat"}


def test_view_lists_the_viewers_legal_actions_only() -> None:
    s = new_game(Rules(), seed="legal", deal=Deal(
        hands=[["6S", "7S", "8S", "9S", "10S", "JS"], ["6H", "7H", "8H", "9H", "10H", "JH"]],
        trump="6D", stock=[], dealer=1, first_attacker=0))
    assert "attack 6S" in s.view(0).legal and s.view(1).legal == []
    s.apply(0, Action.parse("attack 6S"))
    assert s.view(1).legal == ["take"]


def test_views_are_json_ready() -> None:
    s = _midgame()
    for v in (s.view(0), s.spectator_view(), s.full_view()):
        assert json.loads(json.dumps(v.to_dict()))["players"] == 3
