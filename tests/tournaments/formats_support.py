"""Questions the format tests ask of a bracket and of a round's tables that the site never asks:
the site reads a bracket's states and seats tables by its own rules."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence

from tournaments.formats.elimination import BracketPlan, SlotId, SlotState, Status, bracket_state
from tournaments.formats.favourites import PlayerId


def ready_slots(
    plan: BracketPlan,
    winners: Mapping[SlotId, PlayerId],
    withdrawn: Collection[PlayerId] = frozenset(),
) -> list[SlotState]:
    """The matches the site should be playing now, in bracket order."""
    states = bracket_state(plan, winners, withdrawn).values()
    return [s for s in states if s.status is Status.READY]


def repeat_pairs(tables: Iterable[Sequence[PlayerId]], met: set[frozenset[PlayerId]]) -> int:
    """How many pairs seated together have met before."""
    return sum(frozenset(pair) in met for table in tables for pair in itertools.combinations(table, 2))
