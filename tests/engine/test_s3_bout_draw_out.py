"""docs/rules.md §3 — the draw, going out, the fool and the draw game."""

from __future__ import annotations

from games.engine import Event, GameState
from tests.engine.scripted import all_hands, game, play

#: Seat 0 leads 6♠ against seat 1, seat 3 throws in 6♥, seat 1 covers both; trump ♦.
FOUR = [
    ["6S", "9C", "10C", "JC", "QC", "KC"],
    ["7S", "7H", "8S", "8C", "AC", "9S"],
    ["JS", "QS", "KS", "AS", "JH", "QH"],
    ["6H", "10H", "9H", "10S", "KH", "AH"],
]
FOUR_BOUT = ("0: attack 6S", "3: attack 6H", "1: cover 7S>6S", "1: cover 7H>6H")


def draws(events: list[Event]) -> list[tuple[int | None, int]]:
    return [(e.seat, e.count) for e in events if e.kind == "draw"]


def test_the_leader_draws_first_then_clockwise_and_the_defender_last() -> None:
    """ "After every bout the players draw from the stock up to 6 cards in this order: the
    player who led the bout, then everybody else clockwise from them, the bout's final
    defender always last" [001] ([000] says "from the dealer"; we follow [001])."""
    state = game(FOUR, trump="QD", stock=("9D", "10D", "JD"), first_attacker=0, dealer=2)
    events = play(state, *FOUR_BOUT)
    assert draws(events) == [(0, 1), (3, 1), (1, 2)]
    assert state.view(0).hand_counts == [6, 6, 6, 6]


def test_when_the_stock_runs_short_the_defender_goes_without() -> None:
    """ "The bout's final defender always last" [001]; "when the stock runs out, play goes on
    with the cards in hand" [000, 002]."""
    state = game(FOUR, trump="QD", stock=("9D",), first_attacker=0)
    events = play(state, *FOUR_BOUT)
    assert draws(events) == [(0, 1), (3, 1)]
    assert state.view(0).hand_counts == [6, 4, 6, 6] and state.view(0).stock_count == 0
    assert state.result() is None


def test_a_player_holding_six_or_more_draws_nothing() -> None:
    """ "A player holding 6 or more draws nothing" [001]."""
    state = game(
        [["6S", "6C", "9C", "10C", "JC", "QC"], ["7S", "8S", "9S", "10S", "JS", "AH"]],
        trump="QD",
        stock=("9D", "10D", "JD"),
        first_attacker=0,
    )
    events = play(state, "0: attack 6S 6C", "1: take")
    assert draws(events) == [(0, 2)]
    assert state.view(0).hand_counts == [6, 8]


def test_each_player_draws_all_the_cards_they_need_at_once() -> None:
    """ "Each player draws all the cards they need at once" [001]."""
    state = game(
        [["6S", "6C", "6H", "10C", "JC", "QC"], ["7S", "7C", "7H", "10S", "JS", "AH"]],
        trump="QD",
        stock=("9D", "10D", "JD", "KD", "AD", "8C"),
        first_attacker=0,
    )
    events = play(state, "0: attack 6S 6C 6H", "1: cover 7S>6S", "1: cover 7C>6C", "1: cover 7H>6H")
    assert draws(events) == [(0, 3), (1, 3)]
    hands = all_hands(state)
    assert {"9D", "10D", "JD"} <= set(hands[0]) and {"KD", "AD", "8C"} <= set(hands[1])


def test_a_player_without_cards_draws_while_the_stock_lasts() -> None:
    """ "A player with no cards while the stock is empty is out" [000, 001] — with a stock, the
    player draws and plays on ([000]: "if the stock still has cards, he draws")."""
    state = game(
        [["6S"], ["7S", "8S", "9S", "10S", "JS", "AH"]],
        trump="QD",
        stock=("9D", "10D", "JD"),
        first_attacker=0,
    )
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.view(0).out == [] and state.view(0).hand_counts[0] == 4


def test_the_game_is_decided_when_the_bout_ends_so_the_defender_may_answer() -> None:
    """ "This is decided when the bout ends (after the draw), never in the middle of one, so a
    defender can still answer the last card" [000, 001]."""
    state = game([["6S"], ["7S", "8S"], ["9H", "10H"]], trump_suit="D", first_attacker=0)
    play(state, "0: attack 6S")
    assert state.result() is None and state.view(1).out == []
    assert state.awaiting() == {1: "cover"}


def test_players_out_in_the_same_bout_share_their_place() -> None:
    """ "The finishing order is kept; players who go out in the same bout share their place"
    (choice: nobody was out first). Seats 0, 2 (throwing in) and 1 (covering) all empty their hands."""
    state = game([["6S"], ["7S", "7H"], ["6H"], ["9H", "10H"]], trump_suit="D", first_attacker=0)
    events = play(state, "0: attack 6S", "2: attack 6H", "1: cover 7S>6S", "1: cover 7H>6H")
    assert [(e.seat, e.count) for e in events if e.kind == "out"] == [(0, 1), (1, 1), (2, 1)]
    result = state.result()
    assert result is not None and result.places == [[0, 1, 2]] and result.fool == 3


def test_the_last_player_holding_cards_is_the_fool() -> None:
    """ "The game ends when at most one player holds cards: that player is the fool" [000, 001]."""
    state = game([["6S"], ["7S", "8S"]], trump_suit="D", first_attacker=0)
    events = play(state, "0: attack 6S", "1: cover 7S>6S")
    assert events[-1].kind == "game_over"
    result = state.result()
    assert state.is_over and result is not None
    assert (result.fool, result.places, result.draw) == (1, [[0]], False)


def test_the_finishing_order_is_kept() -> None:
    """ "The finishing order is kept" [000]: first out, second out, then the fool."""
    state = game([["6S", "9D"], ["7S"], ["8H", "10H", "JH"]], trump_suit="D", first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S")  # seat 1 is out first
    play(state, "2: attack 8H", "0: cover 9D>8H")  # seat 0 is out second
    result = state.result()
    assert result is not None and result.places == [[1], [0]] and result.fool == 2


def test_a_player_out_in_an_earlier_bout_keeps_the_earlier_place() -> None:
    """ "The finishing order is kept" [000] from a late position: seat 1 went out before this
    bout, seat 0 goes out in it, seat 2 is the fool."""
    state = GameState.from_position("podkidnoy trump=D hands=6S/-/7S,8H attacker=0 bito=yes places=1")
    play(state, "0: attack 6S", "2: cover 7S>6S")
    result = state.result()
    assert result is not None and result.places == [[1], [0]] and result.fool == 2


def test_when_nobody_holds_cards_after_the_last_bout_the_game_is_a_draw() -> None:
    """ "If nobody holds cards after a bout, option draws (default on) makes the game a draw
    between the players who went out in that bout" (choice)."""
    state = game([["6S"], ["7S"]], trump_suit="D", first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S")
    result = state.result()
    assert result is not None and result.draw and result.fool is None
    assert set(result.drawn_seats) == {0, 1}


def test_without_draws_the_last_bouts_defender_is_the_fool() -> None:
    """ "With draws off, that bout's defender is the fool and is not among the finishers"
    (choice: the strict house rule)."""
    state = game([["6S"], ["7S"]], trump_suit="D", first_attacker=0, draws=False)
    play(state, "0: attack 6S", "1: cover 7S>6S")
    result = state.result()
    assert result is not None and not result.draw
    assert result.fool == 1 and result.places == [[0]]


#: Teams 0 & 2 vs 1 & 3: seats 2 and 3 go out together, then seats 0 and 1 together.
TEAM_FINISH = [["6S"], ["7S"], ["8H"], ["9H"]]
TEAM_MOVES = ("2: attack 8H", "3: cover 9H>8H", "0: attack 6S", "1: cover 7S>6S")


def test_in_teams_the_last_players_of_both_teams_out_together_make_a_draw() -> None:
    """ "If the last players of both teams go out in one bout, it is a draw" (choice, as for a
    draw between two players)."""
    state = game(TEAM_FINISH, trump_suit="D", teams=True, first_attacker=2)
    play(state, *TEAM_MOVES)
    result = state.result()
    assert result is not None and result.draw and result.losing_team is None


def test_in_teams_without_draws_the_defenders_team_loses() -> None:
    """ "... or, with draws off, the defender's team loses" (docs/rules.md §3, choice)."""
    state = game(TEAM_FINISH, trump_suit="D", teams=True, first_attacker=2, draws=False)
    play(state, *TEAM_MOVES)
    result = state.result()
    assert result is not None and not result.draw and result.losing_team == (1, 3)
