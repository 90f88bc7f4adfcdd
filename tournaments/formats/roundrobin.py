"""Round robin by the circle method: everyone meets everyone once per leg.

The whole schedule is known at the start, so the site can create every round up front and show
it. With an odd field a phantom player joins the circle and whoever is drawn against it has the
bye that round (everyone gets exactly one bye per leg). In a second leg the pairs repeat in the
same round order with the sides swapped, so whoever was listed second (and, on a site that gives
side 0 the first deal, dealt second) now goes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.formats.favourites import PlayerId


@dataclass(frozen=True, slots=True)
class Round:
    """One round: ``number`` counts from 1 across legs; ``bye`` sits out (odd fields only)."""

    number: int
    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    bye: PlayerId | None


def round_robin(players: Sequence[PlayerId], *, legs: int = 1) -> tuple[Round, ...]:
    """The full schedule for ``players`` (pass them in seed order: seed 1 stays fixed).

    Circle method: player 1 keeps their place while the others rotate one step each round, which
    gives ``n - 1`` rounds (``n`` for an odd field) in which every pair meets exactly once. Side
    0 alternates for the fixed player so nobody always goes first.

    >>> [r.pairs for r in round_robin([1, 2, 3, 4])]
    [((1, 4), (2, 3)), ((3, 1), (4, 2)), ((1, 2), (3, 4))]
    """
    if legs not in (1, 2):
        raise ValueError("a round robin has one or two legs")
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError("a round robin needs two or more distinct players")
    circle: list[PlayerId | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    size = len(circle)
    first_leg: list[tuple[tuple[PlayerId, PlayerId], ...]] = []
    byes: list[PlayerId | None] = []
    for number in range(size - 1):
        pairs: list[tuple[PlayerId, PlayerId]] = []
        bye: PlayerId | None = None
        for i in range(size // 2):
            a, b = circle[i], circle[size - 1 - i]
            if i == 0 and number % 2:
                a, b = b, a
            if a is None or b is None:
                bye = b if a is None else a
            else:
                pairs.append((a, b))
        first_leg.append(tuple(pairs))
        byes.append(bye)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    rounds = [Round(n + 1, pairs, bye) for n, (pairs, bye) in enumerate(zip(first_leg, byes, strict=True))]
    if legs == 2:
        rounds += [
            Round(len(first_leg) + r.number, tuple((b, a) for a, b in r.pairs), r.bye) for r in rounds[:]
        ]
    return tuple(rounds)
