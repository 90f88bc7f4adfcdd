"""Where a game stands, and what it waits for.

The phase is an int on the hot path: ``LEAD`` (the bout's attacker must lead), ``BOUT``
(cards lie on the table), ``BEAT_CHOICE`` (``circle`` stage 1: the drawn card must beat a
circle card), ``OVER``. The codes of :meth:`GameState.awaiting` say what the game needs from
whom; the site keeps its own sentence for each (``docs/rules.md`` §6, "Whose turn").
"""

from __future__ import annotations

from typing import Final

LEAD: Final = 0
BOUT: Final = 1
BEAT_CHOICE: Final = 2
OVER: Final = 3

#: The phases by name, as the snapshot format writes them.
PHASE_NAMES: Final = ("lead", "bout", "beat_choice", "over")

#: ``awaiting()`` codes: the attacker leads; the defender covers, transfers or takes; a thrower
#: throws in or passes (the bito waits for every pass); after a take, a thrower throws in more
#: or passes; ``circle`` stage 1: the drawn card's owner chooses what it beats.
AWAIT_LEAD: Final = "lead"
AWAIT_COVER: Final = "cover"
AWAIT_THROW_IN: Final = "throw_in"
AWAIT_TAKE_MORE: Final = "take_more"
AWAIT_BEAT: Final = "beat"
AWAITING_CODES: Final = (AWAIT_LEAD, AWAIT_COVER, AWAIT_THROW_IN, AWAIT_TAKE_MORE, AWAIT_BEAT)
#: What is awaited of a thrower: while nothing else is, the site runs its public throw-in window.
THROW_IN_CODES: Final = frozenset({AWAIT_THROW_IN, AWAIT_TAKE_MORE})
