"""docs/rules.md §3 — the limit of a bout: the defender's hand, six cards, five before the first
bito."""

from __future__ import annotations

from typing import Any

from games.engine import Action
from games.engine.state import GameState
from tests.engine.scripted import game, play, refusal


def small_defender(held: list[str], **options: Any) -> GameState:
    """Seat 0 holds all four sixes and attacks seat 1, who holds ``held``; seat 2 watches."""
    return game(
        [["6S", "6C", "6H", "6D", "AC"], held, ["KS", "KC", "KH"]],
        trump_suit="D",
        first_attacker=0,
        **options,
    )


def test_a_lead_never_exceeds_the_defenders_hand() -> None:
    """ "The attack cards of one bout never exceed the number of cards the defender held when
    the bout began" [000, 001]."""
    state = small_defender(["7S", "8S"])
    assert Action.parse("attack 6S 6C 6H") not in state.legal_actions(0)
    assert refusal(state, "0: attack 6S 6C 6H") == ("the defender holds 2 cards: no third attack card")


def test_a_throw_in_never_exceeds_the_defenders_hand() -> None:
    """ "... never exceed the number of cards the defender held when the bout began" [000,
    001]: covering does not make room."""
    state = small_defender(["7S", "8S"])
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert refusal(state, "0: attack 6C 6H") == ("the defender holds 2 cards: no third attack card")
    play(state, "0: attack 6C")
    assert state.legal_actions(0) == []


def test_a_defender_with_three_cards_who_takes_one_gets_at_most_two_more() -> None:
    """ "If the defender has three cards and takes the one led, only two more may be thrown
    in" [000]."""
    state = small_defender(["7S", "8S", "9S"])
    play(state, "0: attack 6S", "1: take")
    assert refusal(state, "0: attack 6C 6H 6D") == ("the defender holds 3 cards: no fourth attack card")
    events = play(state, "0: attack 6C 6H")
    assert ("took", 1, 3) in [(e.kind, e.seat, e.count) for e in events]


def test_the_limit_message_counts_one_card_in_the_singular() -> None:
    """ "The defender holds 2 cards: no third attack card" — said in player words, also for one
    card [000, 001] (choice of wording)."""
    state = small_defender(["7S"])
    assert refusal(state, "0: attack 6S 6C") == "the defender holds 1 card: no second attack card"


def test_a_card_beyond_the_defenders_hand_is_refused_with_the_limit() -> None:
    """ "A card that would break the limit is refused: the defender holds 2 cards: no third
    attack card" [000, 001] — also when the limit is already reached."""
    state = small_defender(["7S", "8S"])
    play(state, "0: attack 6S 6C")
    assert refusal(state, "0: attack 6H") == "the defender holds 2 cards: no third attack card"


#: Seat 0 attacks seat 1, who holds nine cards; the covers bring ranks 7, 8 and 9 in play.
SIX_CAP = [
    ["6S", "6C", "6H", "7D", "8S", "9S", "9C"],
    ["7S", "8C", "9H", "10S", "10C", "10H", "JS", "JC", "JH"],
]
SIX_CAP_PLAY = ("0: attack 6S 6C 6H", "1: cover 7S>6S", "1: cover 8C>6C", "1: cover 9H>6H")


def test_a_bout_has_at_most_six_attack_cards() -> None:
    """ "... never exceed 6" [000, 001]: six are laid, a seventh is refused."""
    state = game(SIX_CAP, trump_suit="D", first_attacker=0, bito_done=True)
    play(state, *SIX_CAP_PLAY)
    assert refusal(state, "0: attack 7D 8S 9S 9C") == "a bout has at most 6 attack cards"
    play(state, "0: attack 7D 8S 9S")
    assert len(state.view(0).table) == 6
    assert state.legal_actions(0) == []


def test_a_seventh_card_is_refused_with_the_six_limit() -> None:
    """ "... never exceed 6" [000, 001]: the refusal of a single seventh card says why."""
    state = game(SIX_CAP, trump_suit="D", first_attacker=0, bito_done=True)
    play(state, *SIX_CAP_PLAY, "0: attack 7D 8S 9S")
    assert refusal(state, "0: attack 9C") == "a bout has at most 6 attack cards"


def test_before_the_first_bito_a_bout_has_at_most_five_attack_cards() -> None:
    """ "5 until the game's first bito ("the first discard is five cards") [000, 004], table
    option first_bout_limit_5, default on"."""
    state = game(SIX_CAP, trump_suit="D", first_attacker=0)
    play(state, *SIX_CAP_PLAY)
    assert refusal(state, "0: attack 7D 8S 9S") == ("before the first bito a bout has at most 5 attack cards")
    play(state, "0: attack 7D 8S")
    assert state.legal_actions(0) == []


def test_without_the_first_bito_option_the_first_bout_takes_six() -> None:
    """ "Table option first_bout_limit_5, default on": off, the first bout has six [000, 001]."""
    state = game(SIX_CAP, trump_suit="D", first_attacker=0, first_bout_limit_5=False)
    play(state, *SIX_CAP_PLAY, "0: attack 7D 8S 9S")
    assert len(state.view(0).table) == 6


#: Seat 0 leads against seat 1 twice; the stock refills both hands.
TWO_BOUTS = [
    ["6S", "6C", "6H", "7D", "8S", "AS"],
    ["7S", "8C", "9H", "10S", "10C", "10H"],
]
TWO_BOUTS_STOCK = ("9S", "9C", "JS", "JC", "QS", "QC", "KS", "KC", "JH", "QH", "KH", "AH")


def test_a_bout_that_ends_in_a_take_does_not_lift_the_five_limit() -> None:
    """ "A bout that ends in a take does not lift this limit; the first bout that ends in bito
    does" (choice: [000] speaks of the first "discard", and a take makes no discard)."""
    state = game(TWO_BOUTS, trump="6D", stock=TWO_BOUTS_STOCK, first_attacker=0)
    play(state, "0: attack 6S", "1: take", "0: pass")
    assert state.awaiting() == {0: "lead"}  # a take: seat 0 attacks again
    assert state.attack_limit == 5  # the new bout's limit


def test_the_first_bito_lifts_the_five_limit() -> None:
    """ "The first bout that ends in bito does [lift the limit]" [000, 004]."""
    state = game(TWO_BOUTS, trump="6D", stock=TWO_BOUTS_STOCK, first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S", "0: pass")
    assert state.awaiting() == {1: "lead"}
    assert state.attack_limit == 6  # the new bout's limit
