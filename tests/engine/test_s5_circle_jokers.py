"""docs/rules.md §5 — `circle` jokers: never lead, what they beat, throw-ins after them, a hand of
jokers only [004]."""

from __future__ import annotations

import pytest

from games.engine import Action, IllegalAction
from games.engine.state import GameState
from tests.engine.scripted import play, refusal, stage2


def joker_table(hands: list[list[str]], first: int | None = 0, **options: object) -> GameState:
    """A scripted stage 2 (trump ♦, ``first`` leading) played with the two jokers."""
    return stage2(hands, first, jokers=2, **options)


def test_a_joker_never_leads() -> None:
    """ "A joker never leads ... It only covers" [004: "you may not lead with a joker"]."""
    state = joker_table([["RJ", "6S"], ["7S", "8S"]])
    assert [str(a) for a in state.legal_actions(0)] == ["attack 6S"]
    assert refusal(state, "0: attack RJ") == "a joker never leads: it only covers"


def test_a_joker_is_never_thrown_in() -> None:
    """ "A joker ... is never thrown in or used to transfer: it has no rank" [004] (choice: a
    throw-in matches a rank on the table)."""
    state = joker_table([["6S", "7C", "BJ"], ["7S", "8S", "9S"], ["QC", "KC"]])
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.awaiting() == {0: "throw_in"}
    assert [str(a) for a in state.legal_actions(0)] == ["attack 7C", "pass"]
    assert "black joker" in refusal(state, "0: attack BJ")


def test_a_joker_is_never_used_to_transfer() -> None:
    """ "A joker ... is never ... used to transfer" [004] (choice: it has no rank)."""
    state = joker_table([["6S", "9C"], ["RJ", "8S"], ["7S", "8H", "9H"]])
    play(state, "0: attack 6S")
    assert [a.kind for a in state.legal_actions(1)].count("transfer") == 0
    with pytest.raises(IllegalAction):
        state.apply(1, Action.parse("transfer RJ"))


def test_by_default_a_joker_beats_any_card_even_the_trump_ace() -> None:
    """ "joker_beats: any card, trumps included (default)" [004: "which joker beats what is up
    to you"]."""
    state = joker_table([["AD", "9C"], ["BJ", "8S"]])
    play(state, "0: attack AD")
    assert Action.parse("cover BJ>AD") in state.legal_actions(1)
    play(state, "1: cover BJ>AD")
    assert state.view(0).discard_count == 2


def test_a_colour_joker_beats_only_cards_of_its_colour() -> None:
    """ "joker_beats: ... or only cards of its colour (red joker: ♦ ♥; black joker: ♠ ♣)"
    [004, choice of the table]."""
    state = joker_table([["6S", "6H", "9C"], ["RJ", "8C", "10C"]], joker_beats="colour")
    play(state, "0: attack 6S")
    assert refusal(state, "1: cover RJ>6S") == "red joker does not beat 6♠"
    state = joker_table([["6S", "6H", "9C"], ["RJ", "8C", "10C"]], joker_beats="colour")
    play(state, "0: attack 6H")
    assert Action.parse("cover RJ>6H") in state.legal_actions(1)


#: Seat 0 leads 6♠; seat 1 covers with the red joker; seat 2 holds another six.
AFTER_JOKER = [["6S", "9C"], ["RJ", "8C", "10C"], ["6H", "QC"]]


def test_by_default_throw_ins_go_on_after_a_joker_covered() -> None:
    """ "throw_in_after_joker: whether throw-ins may go on once a joker has covered in this bout
    (default yes)" [004, choice of the table]."""
    state = joker_table(AFTER_JOKER)
    play(state, "0: attack 6S", "1: cover RJ>6S")
    assert state.awaiting() == {2: "throw_in"}


def test_without_throw_ins_after_a_joker_the_bout_is_bito_at_once() -> None:
    """ "throw_in_after_joker ... off": once a joker has covered, nothing more is thrown in
    [004, choice of the table]."""
    state = joker_table(AFTER_JOKER, throw_in_after_joker=False)
    events = play(state, "0: attack 6S", "1: cover RJ>6S")
    assert ("bito", 1) in [(e.kind, e.seat) for e in events]


#: After seat 0's 6♠ is covered, seat 1 should attack next but holds only a joker.
JOKER_ONLY = [["6S", "9C", "10C"], ["7S", "RJ"], ["8H", "JH"]]


def test_defence_only_a_player_holding_only_jokers_skips_the_attack() -> None:
    """ "joker_last: defence_only (default): a player holding only jokers skips their attack;
    the turn goes on clockwise and they wait to be attacked" [004, second way]."""
    state = joker_table(JOKER_ONLY)
    events = play(state, "0: attack 6S", "1: cover 7S>6S")
    assert ("skip", 1) in [(e.kind, e.seat) for e in events]
    assert state.awaiting() == {2: "lead"} and state.defender == 0
    assert state.legal_actions(1) == []


def test_pass_on_a_player_holding_only_jokers_must_lead_one_and_the_next_just_takes_it() -> None:
    """ "joker_last: pass_on: a player whose only cards are jokers must lead one; the next
    player simply takes it and the turn goes to the player after them" [004, first way]."""
    state = joker_table(JOKER_ONLY, joker_last="pass_on")
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.awaiting() == {1: "lead"}
    assert [str(a) for a in state.legal_actions(1)] == ["attack RJ"]
    events = play(state, "1: attack RJ")
    assert [(e.kind, e.seat) for e in events][:2] == [("attack", 1), ("took", 2)]
    assert "RJ" in state.view(2).hand
    assert state.awaiting() == {0: "lead"}


def test_when_everybody_left_holds_only_jokers_the_game_is_a_draw() -> None:
    """ "If two or more players still hold cards and all of them hold only jokers, the game ends
    in a draw between them" (choice: nobody can ever attack again)."""
    state = joker_table([["6S"], ["7S", "RJ"], ["BJ"]])
    play(state, "0: attack 6S", "1: cover 7S>6S")
    result = state.result()
    assert result is not None and result.draw and result.reason == "jokers_only"
    assert set(result.drawn_seats) == {1, 2} and result.places == [[0]]
