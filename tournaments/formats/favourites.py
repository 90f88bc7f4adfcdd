"""The favourites: who is seeded first, and where the seeds sit in a bracket or around tables.

(A tournament's seeds are its entrants in order of strength; the fair deal's random seed is
another thing, ``games.seeding``.)

Every format starts from the same thing, an ordered list of entrants, strongest first. Ratings
decide; equal ratings are broken by a shuffle driven by an explicit ``seed`` so that a draw is
fair (nobody is favoured by their user id) yet replayable (the site stores the seed and gets
the same order back when it recomputes a bracket).

No Django here: players are plain ``int`` ids, the site maps them to users.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

PlayerId = int
"""A player as the pure code sees them: the site's user (or entry) primary key."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered, checked-in player with the rating used for seeding."""

    player: PlayerId
    rating: float


def seed_order(entrants: Sequence[Entrant], *, seed: int = 0) -> list[PlayerId]:
    """Return the players strongest first: rating descending, equal ratings in a seeded shuffle.

    >>> seed_order([Entrant(1, 1500), Entrant(2, 1700), Entrant(3, 1600)])
    [2, 3, 1]
    """
    players = [e.player for e in entrants]
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")
    shuffled = list(entrants)
    random.Random(seed).shuffle(shuffled)
    # sorted() is stable: among equal ratings the shuffled order survives.
    return [e.player for e in sorted(shuffled, key=lambda e: -e.rating)]


def bracket_size(players: int) -> int:
    """The smallest power of two that holds ``players`` (at least 2).

    >>> [bracket_size(n) for n in (2, 3, 4, 5, 16, 17)]
    [2, 4, 4, 8, 16, 32]
    """
    if players < 2:
        raise ValueError("a bracket needs at least two players")
    size = 2
    while size < players:
        size *= 2
    return size


def bracket_seed_positions(size: int) -> list[int]:
    """Seeds in the order of the bracket's first-round lines, top to bottom.

    Built by repeatedly splitting each seed ``s`` into ``s`` and ``m - s`` (``m`` = twice the
    current length plus one), which gives the standard 1-vs-N layout: every first-round match
    adds up to ``size + 1``, seeds 1 and 2 sit in opposite halves (they can meet only in the
    final), seeds 1-4 in different quarters, and so on. Seeds beyond the number of players are
    byes, so the byes fall against the top seeds.

    >>> bracket_seed_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 2 or size & (size - 1):
        raise ValueError("a bracket size is a power of two, at least 2")
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [x for s in order for x in (s, mirror - s)]
    return order


def snake(ordered: Sequence[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """Deal ``ordered`` players to tables of the given sizes in a snake (boustrophedon).

    Players go 1, 2, ..., t across the tables, then t, ..., 1 back, and so on, so that every
    table gets one player from each band of strength and the sum of ranks is as even as a
    simple rule allows. A table that is full (tables may differ in size by one) is skipped.

    >>> snake([1, 2, 3, 4, 5, 6], [3, 3])
    [[1, 4, 5], [2, 3, 6]]
    """
    if sum(sizes) != len(ordered):
        raise ValueError("table sizes do not add up to the number of players")
    tables: list[list[PlayerId]] = [[] for _ in sizes]
    lane = list(range(len(sizes)))
    players = iter(ordered)
    forward = True
    while any(len(t) < s for t, s in zip(tables, sizes, strict=True)):
        for i in lane if forward else reversed(lane):
            if len(tables[i]) < sizes[i]:
                tables[i].append(next(players))
        forward = not forward
    return tables
