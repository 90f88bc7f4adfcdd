"""The ring of seats: play goes clockwise, skipping players who are out (``docs/rules.md`` §1,
§2).

``holding`` is any per-seat sequence whose truth says "holds cards": the hands' bitmasks, or
the hand counts a view shows.
"""

from __future__ import annotations

from collections.abc import Sequence


def next_holding(holding: Sequence[int], seat: int) -> int:
    """The next seat clockwise after ``seat`` that holds cards, or -1."""
    n = len(holding)
    for i in range(1, n):
        t = (seat + i) % n
        if holding[t]:
            return t
    return -1


def next_opponent(holding: Sequence[int], seat: int, teams: bool) -> int:
    """The next opponent clockwise who holds cards (§2 "The defender"): any other player, or
    in teams the next of the two opponents (the partner opposite is skipped)."""
    if not teams:
        return next_holding(holding, seat)
    for t in ((seat + 1) % 4, (seat + 3) % 4):
        if holding[t]:
            return t
    return -1


def partner_of(seat: int, teams: bool) -> int:
    """The partner opposite ``seat`` in a team game, else -1."""
    return (seat + 2) % 4 if teams else -1
