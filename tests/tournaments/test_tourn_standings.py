"""Standings: points and each tiebreak worked out by hand on small events."""

import pytest

from tournaments.formats.multitable import TableResult
from tournaments.formats.standings import (
    EXPLANATIONS,
    GameResult,
    Tiebreak,
    multitable_standings,
    two_player_standings,
)

A, B, C, D = 1, 2, 3, 4
ALL = (
    Tiebreak.BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.DIRECT_ENCOUNTER,
    Tiebreak.FEWEST_FOOLS,
)


def small_round_robin() -> list[GameResult]:
    return [
        GameResult(A, B, 1.0, fool=B),
        GameResult(A, C, 0.5),
        GameResult(A, D, 1.0, fool=D),
        GameResult(B, C, 1.0, fool=C),
        GameResult(B, D, 1.0, fool=D),
        GameResult(C, D, 1.0),  # a forfeit: nobody was the fool
    ]


def test_points_and_every_tiebreak_by_hand() -> None:
    table = two_player_standings([A, B, C, D], small_round_robin(), tiebreaks=ALL)
    lines = {s.player: (s.rank, s.points, s.tiebreaks, s.fools) for s in table}
    # Buchholz: opponents' points; Sonneborn-Berger: result x opponent's points.
    assert lines[A] == (1, 2.5, (3.5, 2.75, 0.0, 0.0), 0)
    assert lines[B] == (2, 2.0, (4.0, 1.5, 0.0, 1.0), 1)
    assert lines[C] == (3, 1.5, (4.5, 1.25, 0.0, 1.0), 1)
    assert lines[D] == (4, 0.0, (6.0, 0.0, 0.0, 2.0), 2)


def test_direct_encounter_counts_games_between_players_level_on_points() -> None:
    games = [GameResult(A, B, 1.0, fool=B)]
    table = two_player_standings([B, A], games, byes=[B], tiebreaks=(Tiebreak.DIRECT_ENCOUNTER,))
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (A, 1, 1.0, (1.0,)),
        (B, 2, 1.0, (0.0,)),
    ]
    assert table[1].byes == 1 and table[1].played == 1


def test_fewest_fools_prefers_the_lower_count() -> None:
    games = [GameResult(A, C, 0.0, fool=A), GameResult(B, D, 0.0)]
    table = two_player_standings([A, B, C, D], games, tiebreaks=(Tiebreak.FEWEST_FOOLS,))
    assert [s.player for s in table] == [C, D, B, A]
    assert [s.rank for s in table] == [1, 1, 3, 4]


def test_players_equal_on_everything_share_the_rank_in_seed_order() -> None:
    table = two_player_standings([C, A, B], [])
    assert [(s.player, s.rank) for s in table] == [(C, 1), (A, 1), (B, 1)]


def test_a_withdrawn_players_games_still_count_for_their_opponents() -> None:
    table = two_player_standings([A, B], small_round_robin(), tiebreaks=(Tiebreak.BUCHHOLZ,))
    assert [s.player for s in table] == [A, B]
    assert table[0].played == 3


def test_game_results_are_checked() -> None:
    with pytest.raises(ValueError):
        GameResult(A, A, 1.0)
    with pytest.raises(ValueError):
        GameResult(A, B, 0.25)
    with pytest.raises(ValueError):
        GameResult(A, B, 1.0, fool=A)
    with pytest.raises(ValueError):
        GameResult(A, B, 0.5, fool=A)


def test_multitable_points_and_tiebreaks() -> None:
    tables = [
        TableResult(((A,), (B,), (C,)), fool=C),  # 60, 30, 0
        TableResult(((C,), (B, A))),  # a draw: A and B share 2nd-3rd, 15 each
    ]
    table = multitable_standings([A, B, C], tables, tiebreaks=ALL)
    lines = {s.player: s for s in table}
    assert {p: s.points for p, s in lines.items()} == {A: 75.0, B: 45.0, C: 60.0}
    # Buchholz of A: mean of B and C (52.5) at both tables.
    assert lines[A].tiebreaks[0] == 105.0
    # Sonneborn-Berger of C: (0*75 + 0*45)/2 at table 1, (1*75 + 1*45)/2 at table 2.
    assert lines[C].tiebreaks[1] == 60.0
    # Direct encounter: nobody level on points.
    assert all(s.tiebreaks[2] == 0.0 for s in table)
    assert (lines[A].fools, lines[C].fools) == (0, 1)
    assert [s.player for s in table] == [A, C, B]


def test_every_tiebreak_is_explained() -> None:
    assert set(EXPLANATIONS) == set(Tiebreak)
