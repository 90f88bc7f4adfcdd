"""The defender takes (``docs/rules.md`` §3 "Take").

The defender may take at any time while a card lies uncovered, even at once. The attackers may
still throw in, within the limit, and the defender picks up every card on the table, covers
included, when they are done (:mod:`.end`). A take is a change on the table: it reopens every
pass, since everybody may add to the pick-up.
"""

from __future__ import annotations

from ..data import GameData
from ..events import Event


def declare_take(s: GameData, seat: int, ev: list[Event] | None) -> None:
    """The defender declares the take: they cover nothing more this bout."""
    s.taking = True
    if ev is not None:
        ev.append(Event("take", seat))
    s.passed = 0
