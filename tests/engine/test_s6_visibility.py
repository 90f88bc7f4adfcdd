"""docs/rules.md §6 — what every player sees: the visibility matrix, one test per row.

=====================================  =========  ===========  ================
what                                   own seat   other seat   spectator
=====================================  =========  ===========  ================
trump card, stock count, discard count  yes        yes          yes
the table, hand sizes, finishing order  yes        yes          yes
whose turn, what is awaited             yes        yes          yes
every action (who played which card)    yes        yes          yes
the circle of stage 1 and the drawn card yes       yes          yes
a hand                                  own        no           no
the stock's order, the discard's faces  no         no           no
everything, after the game (replay)     full view  full view    full view
=====================================  =========  ===========  ================
"""

from __future__ import annotations

import json
import random
import re

import pytest

from games.engine import Deal, Rules, new_game
from games.engine.state import GameState
from tests.engine.scripted import all_hands, game, play

CARD = re.compile(r"\b(?:10|[2-9JQKA])[SCDH]\b|\b[RB]J\b")


def visible_cards(view: object) -> set[str]:
    """Every card written anywhere in a view's JSON form."""
    return set(CARD.findall(json.dumps(view.to_dict())))  # type: ignore[attr-defined]


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: a spectator) may not see: other hands, the stock, the discard;
    the trump card and the shown lowest trump are public."""
    full = state.full_view()
    hidden: set[str] = set(full.stock or []) | set(full.discard or [])
    for other, hand in enumerate(all_hands(state) or []):
        if other != seat:
            hidden |= set(hand)
    return hidden - {full.trump_card, full.opening_trump}


THREE = [
    ["6S", "9C", "10C", "JC", "QC", "KC"],
    ["7S", "8H", "9H", "10H", "JH", "QH"],
    ["7D", "AC", "AS", "JS", "QS", "KS"],
]
STOCK = ("6C", "6H", "7C", "7H", "8C")


def mid_game() -> GameState:
    """After one bito: cards in three hands, the stock and the discard."""
    state = game(THREE, trump="8D", stock=STOCK, first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S", "2: pass")
    return state


def test_a_player_sees_their_own_hand_and_only_counts_of_the_others() -> None:
    """ "Only the owner sees their hand" and "everybody sees ... each player's hand size"
    (choice: a hand is held, not shown [000, 001])."""
    state = mid_game()
    full = state.full_view()
    for seat in range(3):
        view = state.view(seat)
        assert sorted(view.hand) == sorted(all_hands(state)[seat])
        assert view.hands is None
        assert view.hand_counts == full.hand_counts


def test_no_view_shows_a_card_its_seat_may_not_see() -> None:
    """ "Nobody sees the stock's order or the faces in the discard pile"; "only the owner sees
    their hand" [000: stock and discard lie face down]."""
    state = mid_game()
    for seat in (0, 1, 2, None):
        view = state.view(seat) if seat is not None else state.spectator_view()
        assert not visible_cards(view) & hidden_from(state, seat)
    assert visible_cards(state.full_view()) >= hidden_from(state, 0)  # the check can see


def test_the_stock_order_and_the_discard_faces_stay_hidden_but_their_counts_show() -> None:
    """ "Everybody sees: the trump card, the stock count, the discard count" and "nobody sees the
    stock's order or the faces in the discard pile" [000, 001]."""
    state = mid_game()
    for view in (state.view(0), state.spectator_view()):
        assert view.stock is None and view.discard is None
        assert view.stock_count == 4 and view.discard_count == 2
        assert view.trump_card == "8D" and view.trump_suit == "D"


def test_a_spectator_sees_the_table_and_no_hand() -> None:
    """ "A spectator sees what every player sees and no hand" (choice)."""
    state = game(THREE, trump="8D", stock=STOCK, first_attacker=0)
    play(state, "0: attack 6S")
    view = state.spectator_view()
    assert view.hand == [] and view.hands is None and view.legal == []
    assert view.table == [("6S", None)] and view.hand_counts == [5, 6, 6]
    assert view.attacker == 0 and view.defender == 1 and view.awaiting == {1: "cover"}


def test_every_player_sees_whose_turn_it_is_and_what_is_awaited() -> None:
    """ "Everybody sees ... whose turn it is and what is awaited of whom" (choice)."""
    state = game(THREE, trump="8D", stock=STOCK, first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S")
    for seat in (0, 1, 2):
        assert state.view(seat).awaiting == {2: "throw_in"}
        assert state.view(seat).actors == [2]
    assert state.view(2).legal == ["attack 7D", "pass"] and state.view(0).legal == []


def test_draws_are_told_as_counts_never_as_cards() -> None:
    """ "Draws are announced as counts, never as cards" [000, 002: the stock lies face down]."""
    state = game(THREE, trump="8D", stock=STOCK, first_attacker=0)
    events = play(state, "0: attack 6S", "1: cover 7S>6S", "2: pass")
    drawn = [e for e in events if e.kind == "draw"]
    assert drawn and all(e.cards == () and e.count > 0 for e in drawn)
    assert all("cards" not in e.to_dict() for e in drawn)


def test_every_action_is_told_with_its_cards() -> None:
    """ "Everybody sees ... every action taken (who played which card)" [000: cards are laid
    face up on the table]."""
    state = game(THREE, trump="8D", stock=STOCK, first_attacker=0)
    events = play(state, "0: attack 6S", "1: cover 7S>6S")
    assert events[0].to_dict() == {"kind": "attack", "seat": 0, "cards": ["6S"], "count": 1}
    assert events[1].to_dict() == {"kind": "cover", "seat": 1, "cards": ["7S"], "target": "6S"}


def test_the_finishing_order_is_public() -> None:
    """ "Everybody sees ... the finishing order" (choice)."""
    state = game([["6S", "AC"], ["7S"], ["9H", "10H"]], trump_suit="D", first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S")
    for view in (state.view(0), state.view(2), state.spectator_view()):
        assert view.places == [[1]] and view.out == [1]


def test_after_the_game_the_full_view_shows_everything() -> None:
    """ "After the game the replay shows everything" (choice)."""
    state = game([["6S"], ["7S", "8S"]], trump_suit="D", first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.is_over
    full = state.full_view()
    assert all_hands(state) == [[], ["8S"]] and full.discard == ["6S", "7S"]
    assert full.result is not None and full.result["fool"] == 1


def test_the_circle_and_the_drawn_card_are_public_in_stage_1() -> None:
    """ "Everybody sees ... the circle of stage 1 (face up)" [004: the cards lie face up]."""
    rules = Rules.for_variant("circle", players=3)
    state = new_game(
        rules,
        seed="s",
        deal=Deal(
            circle=["7H", "8H", "2S", "3S", "4C", "5C", "6S", "9C"],
            center="2D",
            stock=["9H", "4S", "6C"],
            dealer=0,
        ),
    )
    for view in (state.view(0), state.view(2), state.spectator_view()):
        assert view.circle == ["7H", "8H", "2S", "3S", "4C", "5C", "6S", "9C"]
        assert view.drawn == "9H" and view.trump_card == "2D"
        assert not visible_cards(view) & {"4S", "6C"}


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "circle"])
def test_no_view_ever_leaks_a_card_in_a_whole_game(variant: str) -> None:
    """ "Only the owner sees their hand. Nobody sees the stock's order or the discard pile's
    faces" [000, 002: face down] (choice for the hands): checked at every step of a whole
    3-player game played by a fixed random sequence of legal actions."""
    rules = Rules.for_variant(variant, players=3)
    state = new_game(rules, seed=f"leak-{variant}")
    pick = random.Random(variant)
    while not state.is_over:
        for seat in (*range(3), None):
            view = state.view(seat) if seat is not None else state.spectator_view()
            assert not visible_cards(view) & hidden_from(state, seat)
        seat = pick.choice(state.actors())
        state.apply(seat, pick.choice(state.legal_actions(seat)))
