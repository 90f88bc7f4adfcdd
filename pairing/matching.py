"""Who meets whom: the pure heart of quick pairing (no database, so hypothesis can test it).

``pair`` takes the waiting seeks and the blocked pairs and returns the tables to make. Each seek
is in at most one group; a group holds ``players`` seeks of one setup and of as many different
people, none of whom blocked another; in a rated group every two ratings are within the smaller
of the two seekers' ranges. The oldest seek is served first (it has waited longest), and a group
is filled with the oldest seeks that fit it.

A rated seek's range widens with waiting time (``current_range``), so a lone seek eventually
meets someone far away rather than nobody; the services re-run ``pair`` on a beat for that.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from pairing.setups import Setup

#: How much a rated seek's range grows, and how often (Lichess widens its pool ranges alike).
WIDEN_BY: Final = 50
WIDEN_EVERY_SECONDS: Final = 10
#: A range never grows past this (a seek of "any rating" has none).
WIDEST: Final = 800


def current_range(base: int | None, waited_seconds: float) -> int | None:
    """The rating distance a seek accepts after waiting ``waited_seconds`` (``None``: any).

    >>> current_range(100, 0), current_range(100, 25), current_range(None, 5), current_range(700, 999)
    (100, 200, None, 800)
    """
    if base is None:
        return None
    steps = int(max(waited_seconds, 0) // WIDEN_EVERY_SECONDS)
    return min(base + steps * WIDEN_BY, max(base, WIDEST))


@dataclass(frozen=True, slots=True)
class Waiting:
    """A seek as the matcher sees it: ``range`` is already widened for its waiting time."""

    id: int
    user_id: int
    setup: Setup
    rating: float
    range: int | None
    since: float


def blocked_key(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def fits(a: Waiting, b: Waiting, blocked: Collection[frozenset[int]]) -> bool:
    """Whether ``a`` and ``b`` may sit at one table."""
    if a.user_id == b.user_id or a.setup != b.setup or blocked_key(a.user_id, b.user_id) in blocked:
        return False
    if not a.setup.rated:
        return True
    limits = [r for r in (a.range, b.range) if r is not None]
    return not limits or abs(a.rating - b.rating) <= min(limits)


def pair(seeks: Sequence[Waiting], blocked: Collection[frozenset[int]]) -> list[tuple[Waiting, ...]]:
    """The groups to seat, each one table's players in seat order (oldest seek first)."""
    by_setup: dict[Setup, list[Waiting]] = defaultdict(list)
    for seek in sorted(seeks, key=lambda s: (s.since, s.id)):
        by_setup[seek.setup].append(seek)
    groups: list[tuple[Waiting, ...]] = []
    seated: set[int] = set()  # users, across setups: nobody sits at two new tables
    for setup, queue in by_setup.items():
        for anchor in queue:
            if anchor.user_id in seated:
                continue
            group = [anchor]
            for other in queue:
                if len(group) == setup.players:
                    break
                if other.user_id in seated or other is anchor:
                    continue
                if all(fits(member, other, blocked) for member in group):
                    group.append(other)
            if len(group) == setup.players:
                groups.append(tuple(group))
                seated.update(member.user_id for member in group)
    return groups
