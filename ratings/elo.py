"""Elo arithmetic for Durak: two players, 3-6 player finishing orders, and 2 vs 2 teams.

Pure Python (no Django): the rating service, the recompute command and the tests all call these
functions, so a stored rating and a recomputed one go through the same arithmetic in the same order.

Durak has no single winner, only a loser (the fool) and an order in which players got rid of their
cards. So a multiplayer game is scored as every pair at the table playing a mini-game decided by that
order: out earlier beats out later, out in the same bout is a draw, the fool loses to everyone, and a
drawn game (nobody holding cards at the end) draws everyone in it. Each player's change is
K/(N-1) times the sum over opponents of (score - expected), which for N = 2 is plain Elo.

Teams (2 vs 2): a team's rating is its members' mean; each member moves by their own K times
(team result - team expected), so partners with different K move by different amounts.

>>> round(expected_score(1500, 1500), 3)
0.5
>>> changes = multiplayer_changes({"a": 1500, "b": 1500}, [["a"], ["b"]], {"a": 0, "b": 0})
>>> changes == {"a": 20.0, "b": -20.0}
True
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

START_RATING = 1500.0
K_NEW = 40
K_SETTLED = 20
K_NEW_GAMES = 30
"""A player's first 30 games in a pool move with K = 40, so a newcomer finds their level quickly."""
PROVISIONAL_GAMES = 20
"""Below 20 games a rating is shown with "?" and kept off the leaderboards."""


def k_factor(games_played: int) -> int:
    """K for a player's next game in a pool, given the games they have already played there.

    >>> k_factor(0), k_factor(29), k_factor(30)
    (40, 40, 20)
    """
    return K_NEW if games_played < K_NEW_GAMES else K_SETTLED


def is_provisional(games_played: int) -> bool:
    """Whether a rating is still provisional (shown with "?", not on leaderboards)."""
    return games_played < PROVISIONAL_GAMES


def expected_score(rating: float, opponent: float) -> float:
    """The Elo expectation of `rating` against `opponent` (0..1)."""
    odds: float = 10.0 ** ((opponent - rating) / 400.0)  # a float to a float power is typed Any
    return 1.0 / (1.0 + odds)


def place_index(places: Sequence[Sequence[P]]) -> dict[P, int]:
    """Map each player to the index of their group in the finishing order.

    `places` lists groups best first; players out in the same bout share a group, a drawn game's
    players share the last group, and the fool (or every leaver, who counts as the fool) is last.
    """
    index: dict[P, int] = {}
    for rank, group in enumerate(places):
        for player in group:
            if player in index:
                raise ValueError(f"{player!r} appears twice in the finishing order")
            index[player] = rank
    return index


def pair_score(place: int, opponent_place: int) -> float:
    """The mini-game result between two players from their finishing-order indexes."""
    if place < opponent_place:
        return 1.0
    if place > opponent_place:
        return 0.0
    return 0.5


def multiplayer_changes(
    ratings: Mapping[P, float],
    places: Sequence[Sequence[P]],
    games_played: Mapping[P, int],
) -> dict[P, float]:
    """Rating changes for a 2-6 player game from its finishing order.

    >>> ch = multiplayer_changes({1: 1500, 2: 1500, 3: 1500}, [[1], [2], [3]], {1: 40, 2: 40, 3: 40})
    >>> ch[1], ch[2], ch[3]
    (10.0, 0.0, -10.0)
    """
    index = place_index(places)
    if set(index) != set(ratings):
        raise ValueError("the finishing order and the ratings name different players")
    n = len(ratings)
    if n < 2:
        raise ValueError("a rated game needs at least two players")
    changes: dict[P, float] = {}
    for player, rating in ratings.items():
        total = 0.0
        for opponent, opponent_rating in ratings.items():
            if opponent == player:
                continue
            score = pair_score(index[player], index[opponent])
            total += score - expected_score(rating, opponent_rating)
        changes[player] = k_factor(games_played[player]) / (n - 1) * total
    return changes


def team_changes(
    ratings: Mapping[P, float],
    team_a: Sequence[P],
    team_b: Sequence[P],
    score_a: float,
    games_played: Mapping[P, int],
) -> dict[P, float]:
    """Rating changes for a 2 vs 2 game; `score_a` is 1 (team A won), 0.5 (draw) or 0 (A lost).

    >>> r = {"a1": 1600, "a2": 1400, "b1": 1500, "b2": 1500}
    >>> ch = team_changes(r, ["a1", "a2"], ["b1", "b2"], 1.0, dict.fromkeys(r, 50))
    >>> ch == {"a1": 10.0, "a2": 10.0, "b1": -10.0, "b2": -10.0}
    True
    """
    if score_a not in (0.0, 0.5, 1.0):
        raise ValueError("a team result is 1, 0.5 or 0")
    mean_a = sum(ratings[p] for p in team_a) / len(team_a)
    mean_b = sum(ratings[p] for p in team_b) / len(team_b)
    expected_a = expected_score(mean_a, mean_b)
    changes: dict[P, float] = {}
    for player in team_a:
        changes[player] = k_factor(games_played[player]) * (score_a - expected_a)
    for player in team_b:
        changes[player] = k_factor(games_played[player]) * ((1.0 - score_a) - (1.0 - expected_a))
    return changes
