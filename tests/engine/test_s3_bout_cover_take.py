"""docs/rules.md §3 — covering, taking and bito."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Action, IllegalAction, beats, card_from_str
from games.engine.state import GameState
from tests.engine.scripted import all_hands, game, play, refusal


@pytest.mark.parametrize(
    ("cover", "attack", "result"),
    [
        ("7S", "6S", True),  # a higher card of its suit
        ("AS", "KS", True),
        ("6S", "7S", False),  # a lower card of its suit
        ("AH", "6S", False),  # another suit, not trump
        ("6D", "AS", True),  # any trump beats a non-trump
        ("7D", "6D", True),  # a higher trump beats a trump
        ("6D", "7D", False),  # a lower trump does not
        ("AS", "6D", False),  # a non-trump never beats a trump
    ],
)
def test_the_cover_relation(cover: str, attack: str, result: bool) -> None:
    """ "An attack card is beaten by a higher card of its suit, or by any trump if it is not a
    trump; a trump only by a higher trump" [000, 001, 002]. Trump ♦ here."""
    assert beats(card_from_str(cover), card_from_str(attack), trump=2) is result


DUEL = [["6S", "6C", "9S", "KD", "QH"], ["7S", "7C", "AS", "6D", "7D", "8H"]]


def duel(**options: Any) -> GameState:
    """Seat 0 attacks seat 1, trump ♦, a stock that keeps everybody in the game."""
    return game(DUEL, trump="8D", stock=("10S", "10C", "10H", "JS"), first_attacker=0, **options)


def test_a_card_that_does_not_beat_is_refused_with_the_reason() -> None:
    """ "A card that does not beat is refused: 7♠ does not beat 9♠" [000, 001, 002]."""
    state = duel()
    play(state, "0: attack 9S")
    assert refusal(state, "1: cover 7S>9S") == "7♠ does not beat 9♠"
    assert refusal(state, "1: cover 8H>9S") == "8♥ does not beat 9♠"


def test_a_trump_is_beaten_only_by_a_higher_trump() -> None:
    """ "A trump only by a higher trump" [000, 001, 002]."""
    state = duel()
    play(state, "0: attack KD")
    assert refusal(state, "1: cover 7D>KD") == "7♦ does not beat K♦"
    assert refusal(state, "1: cover AS>KD") == "A♠ does not beat K♦"
    assert [a for a in state.legal_actions(1) if a.kind == "cover"] == []


def test_any_trump_beats_a_card_of_another_suit() -> None:
    """ "Or by any trump if it is not a trump" [000, 001, 002]."""
    state = duel()
    play(state, "0: attack 9S")
    play(state, "1: cover 6D>9S")
    assert state.view(0).table == [("9S", "6D")]


def test_the_defender_chooses_which_card_covers_which_in_any_order() -> None:
    """ "The defender chooses which card covers which, one at a time, in any order" [000]."""
    state = duel()
    events = play(state, "0: attack 6S 6C", "1: cover 7C>6C", "1: cover 7S>6S")
    covers = [(e.cards, e.target) for e in events if e.kind == "cover"]
    assert covers == [
        ((card_from_str("7C"),), card_from_str("6C")),
        ((card_from_str("7S"),), card_from_str("6S")),
    ]


def test_a_covered_card_cannot_be_covered_again() -> None:
    """ "The defender chooses which card covers which, one at a time" [000]: one cover each."""
    state = duel()
    play(state, "0: attack 6S 6C", "1: cover 7S>6S")
    assert refusal(state, "1: cover AS>6S") == "6♠ is already covered"


def test_a_cover_names_a_card_on_the_table() -> None:
    """ "A cover names which attack card it beats" (choice: the notation `cover 7S>6S`)."""
    state = duel()
    play(state, "0: attack 6S")
    assert refusal(state, "1: cover AS>9S") == "9♠ is not on the table"


def test_a_cover_must_come_from_the_defenders_hand() -> None:
    """The defender covers with a card of their own hand [000, 001, 002]."""
    state = duel()
    play(state, "0: attack 6S")
    assert refusal(state, "1: cover 8S>6S") == "you do not hold 8♠"


def test_the_defender_may_take_at_once() -> None:
    """ "The defender may take at any time instead of covering, even at once" [000]."""
    state = duel()
    play(state, "0: attack 9S")
    assert Action.parse("take") in state.legal_actions(1)
    events = play(state, "1: take")
    # the attacker, with nothing to add, passes (§3 "Waiting for the throwers"): the pick-up
    assert [(e.kind, e.seat) for e in events][:3] == [("take", 1), ("pass", 0), ("took", 1)]


def test_taking_takes_every_card_on_the_table_covered_ones_included() -> None:
    """ "Taking takes every card on the table, the covered ones and the covers included" [000]."""
    state = duel()
    play(state, "0: attack 6S 6C", "1: cover 7S>6S", "1: take")
    hand = all_hands(state)[1]
    assert {"6S", "6C", "7S"} <= set(hand) and state.view(0).table == []


def test_after_a_take_the_attackers_may_still_throw_in_and_the_defender_takes_those_too() -> None:
    """ "The attackers may then still throw in, within the limit, and the defender takes those
    too" [000]."""
    state = duel()
    play(state, "0: attack 6S", "1: take")
    assert state.awaiting() == {0: "take_more"}
    play(state, "0: attack 6C")
    assert state.awaiting() == {0: "lead"}
    assert {"6S", "6C"} <= set(all_hands(state)[1])


def test_after_declaring_a_take_the_defender_covers_nothing_more() -> None:
    """ "After declaring a take the defender covers nothing more" [000: "he must take them"]."""
    state = game([*DUEL, ["6H", "KS"]], trump="8D", stock=("10S", "10C"), first_attacker=0)
    play(state, "0: attack 6S", "1: take")
    assert state.legal_actions(1) == []
    with pytest.raises(IllegalAction):
        state.apply(1, Action.parse("cover 7S>6S"))
    play(state, "2: attack 6H", "0: pass")
    assert {"6S", "6H"} <= set(all_hands(state)[1])


def test_after_a_take_the_passes_end_the_throwing_in_and_the_defender_picks_up() -> None:
    """ "After a take, the same passes end the throwing-in and the defender picks everything
    up" [000, 001]."""
    state = duel()
    play(state, "0: attack 6S", "1: take")
    events = play(state, "0: pass")
    assert [(e.kind, e.seat, e.count) for e in events][:2] == [("pass", 0, 0), ("took", 1, 1)]


def test_once_everything_is_covered_the_throwers_decide_and_the_defender_may_not_take() -> None:
    """ "The defender may take only while some attack card is uncovered; once everything is
    covered the throwers decide (throw in or pass)" (choice: a defender who has beaten every
    card has defended)."""
    state = duel()
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.legal_actions(1) == []
    with pytest.raises(IllegalAction):
        state.apply(1, Action.parse("take"))


def test_bito_sends_the_table_face_down_to_the_discard_pile() -> None:
    """ "The table goes to the discard pile face down and is out of the game for good" [000,
    001]."""
    state = duel()
    events = play(state, "0: attack 9S", "1: cover AS>9S")
    assert ("bito", 1, 2) in [(e.kind, e.seat, e.count) for e in events]
    assert state.view(0).discard_count == 2 and state.view(0).discard is None
    full = state.full_view()
    assert full.discard == ["9S", "AS"]
    assert not {"9S", "AS"} & {c for h in all_hands(state) for c in h}
