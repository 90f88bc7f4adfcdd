"""A rated game left too early (``docs/rules.md`` §7, "Games that do not count").

Lichess rates no game that ends before each side has moved: a game one player leaves at once
says nothing about strength, and rating it would let one person's second account hand its points
over in seconds. Here a game decided by a forfeit (a resignation, an abort after the deal, or the
autopilot after timeouts) while some player had made fewer than ``settings.GAMES_RATED_MIN_MOVES``
moves of their own is not rated, scores nothing in an arena, and its leaver goes into the
deal-fishing ledger (``play.services.playban``).

A move of one's own is one the seat's player chose (``Move.By.PLAYER``) or a bot's; a timeout's
default, the autopilot's and a forced move are not. ``too_early`` and ``ended_too_early`` are
pure; ``own_moves`` is the one query that feeds them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Count

from games.models import Move

#: Who plays a move that counts as the seat's own.
OWN_MOVES = (Move.By.PLAYER, Move.By.BOT)


def too_early(own: Mapping[int, int], seats: Iterable[int], minimum: int) -> bool:
    """Whether some seat of ``seats`` has made fewer than ``minimum`` moves of its own.

    >>> too_early({0: 3, 1: 2}, [0, 1], 3)
    True
    >>> too_early({0: 3, 1: 3}, [0, 1], 3)
    False
    """
    return any(own.get(seat, 0) < minimum for seat in seats)


def ended_too_early(
    result: Mapping[str, Any], own: Mapping[int, int], seats: Iterable[int], minimum: int
) -> bool:
    """Whether a finished match was decided by a forfeit before every seat made ``minimum``
    moves of its own (a game played to its end is never too early, however short).

    >>> ended_too_early({"reason": "forfeit"}, {0: 1, 1: 0}, [0, 1], 3)
    True
    >>> ended_too_early({"reason": "fool"}, {0: 1, 1: 0}, [0, 1], 3)
    False
    """
    return result.get("reason") == "forfeit" and too_early(own, seats, minimum)


def own_moves(match_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """Match id -> seat -> the moves of its own that seat made (one query)."""
    found: dict[int, dict[int, int]] = {}
    rows = (
        Move.objects.filter(match_id__in=list(match_ids), by__in=OWN_MOVES)
        .values_list("match_id", "seat")
        .annotate(count=Count("pk"))
        .order_by()
    )
    for match_id, seat, count in rows:
        found.setdefault(match_id, {})[seat] = count
    return found
