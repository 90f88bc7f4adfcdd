"""The ring of seats: play goes clockwise, skipping players who are out (``docs/rules.md`` §1,
§2).

``holding`` is any per-seat sequence whose truth says "holds cards": the hands' bitmasks, or
the hand counts a view shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .rules import PLAYERS

#: CLOCKWISE[n][seat] = every seat of a table of ``n`` clockwise from ``seat``, ``seat`` first:
#: a bout begins, ends and draws in these orders, so they are looked up, not counted out.
CLOCKWISE: Final = tuple(
    tuple(tuple((seat + i) % n for i in range(n)) for seat in range(n)) for n in range(max(PLAYERS) + 1)
)
#: AFTER[n][seat] = the other seats clockwise from ``seat``'s left.
AFTER: Final = tuple(tuple(ring[1:] for ring in rings) for rings in CLOCKWISE)
#: The two opponents of each seat of a team game, clockwise from its left.
_TEAM_OPPONENTS: Final = tuple(((seat + 1) % 4, (seat + 3) % 4) for seat in range(4))


def next_holding(holding: Sequence[int], seat: int) -> int:
    """The next seat clockwise after ``seat`` that holds cards, or -1."""
    for t in AFTER[len(holding)][seat]:
        if holding[t]:
            return t
    return -1


def next_opponent(holding: Sequence[int], seat: int, teams: bool) -> int:
    """The next opponent clockwise who holds cards (§2 "The defender"): any other player, or
    in teams the next of the two opponents (the partner opposite is skipped)."""
    for t in _TEAM_OPPONENTS[seat] if teams else AFTER[len(holding)][seat]:
        if holding[t]:
            return t
    return -1


def partner_of(seat: int, teams: bool) -> int:
    """The partner opposite ``seat`` in a team game, else -1."""
    return (seat + 2) % 4 if teams else -1
