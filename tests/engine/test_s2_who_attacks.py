"""docs/rules.md §2 — who attacks first, who defends, who attacks next."""

from __future__ import annotations

import pytest

from tests.engine.scripted import game, play, refusal

THREE = [
    ["6S", "9C", "10C", "9D", "QS", "KS"],
    ["7S", "8H", "9H", "10H", "JH", "QH"],
    ["7D", "AC", "AS", "JC", "QC", "KC"],
]
STOCK = ("6C", "6H", "7C", "7H")


def test_the_lowest_trump_attacks_first_and_is_shown_to_everybody() -> None:
    """ "The first attack of a game belongs to the player with the lowest trump in hand, and
    that card is shown to everybody" [000, 001, 002]."""
    state = game(THREE, trump="8D", stock=STOCK)
    assert state.awaiting() == {2: "lead"} and state.actors() == (2,)
    assert state.defender == 0
    for seat in (0, 1, 2):
        assert state.view(seat).opening_trump == "7D"
    assert state.spectator_view().opening_trump == "7D"


@pytest.mark.parametrize(("dealer", "first"), [(0, 1), (1, 2), (2, 0)])
def test_without_a_trump_in_any_hand_the_player_left_of_the_dealer_attacks(dealer: int, first: int) -> None:
    """ "If nobody holds a trump, the player to the left of the dealer attacks first" (choice:
    the usual fallback, and the same seat that starts `circle` stage 1)."""
    hands = [["6S", "7S"], ["8S", "9S"], ["10S", "JS"]]
    state = game(hands, trump="6D", stock=("7D", "8D", "9D"), dealer=dealer)
    assert state.awaiting() == {first: "lead"}


def test_after_bito_the_defender_attacks_next() -> None:
    """ "After a successful defence (bito) the defender attacks next" [001]."""
    state = game(THREE, trump="8D", stock=STOCK, first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S", "2: pass")
    assert state.awaiting() == {1: "lead"}
    assert state.defender == 2


def test_after_a_take_the_player_after_the_defender_attacks_next() -> None:
    """ "After a take, the player after the defender attacks next" [001]."""
    state = game(THREE, trump="8D", stock=STOCK, first_attacker=0)
    play(state, "0: attack 6S", "1: take")
    assert state.awaiting() == {2: "lead"}
    assert state.defender == 0


def test_in_two_player_games_a_take_gives_the_attacker_the_next_attack() -> None:
    """ "After a take, the player after the defender attacks next" [001]: with two players that
    is the attacker again."""
    state = game(THREE[:2], trump="8D", stock=STOCK, first_attacker=0)
    play(state, "0: attack 6S", "1: take")
    assert state.awaiting() == {0: "lead"} and state.defender == 1


OUT_POSITION = [["6S", "9H", "10C"], ["7S"], ["8H", "JH"]]


def test_when_the_next_attacker_is_out_the_next_player_with_cards_attacks() -> None:
    """ "If that player is out, the next player clockwise who still has cards attacks" (choice:
    play simply moves on round the ring). Seat 1 defends with its last card and is out."""
    state = game(OUT_POSITION, trump_suit="D", first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.view(0).out == [1]
    assert state.awaiting() == {2: "lead"} and state.defender == 0


def test_the_defender_is_the_next_player_with_cards_skipping_players_out() -> None:
    """ "The defender is always the next player clockwise who still has cards, skipping players
    who are out" [000, 001]."""
    state = game(OUT_POSITION, trump_suit="D", first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S", "2: attack 8H", "0: cover 9H>8H")
    assert state.awaiting() == {0: "lead"}
    assert state.defender == 2


def test_only_the_attacker_may_lead() -> None:
    """ "The attacker leads one card" [000, 002]: nobody else may open the bout."""
    state = game(THREE, trump="8D", stock=STOCK, first_attacker=0)
    assert state.legal_actions(1) == [] and state.legal_actions(2) == []
    assert refusal(state, "2: attack AC") == "it is not your turn"
