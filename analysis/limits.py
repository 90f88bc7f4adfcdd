"""How many board pages and evaluation requests a client may send: per client address and per
account, counted in the cache (Redis when ``REDIS_URL`` is set, so every daphne shares the
count) before any database work or engine reading.

Each board request reads a position and plays its line on, so a script fetching boards in a
loop is stopped here first: the address is counted with nothing read, the account is the
session's user id, without a read of the user table. ``settings.ANALYSIS_BOARD_RATE``
(requests, window seconds) is the account's limit; an address may send four times as many.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.http import HttpRequest

#: An address's allowance over an account's: a school or a family shares one address.
ADDRESS_FACTOR = 4


def board_allowed(request: HttpRequest, *, now: float | None = None) -> bool:
    """Count one request for the request's address and its account; False once either is over."""
    limit, window = settings.ANALYSIS_BOARD_RATE
    slot = int((time.time() if now is None else now) // window)
    address = request.META.get("REMOTE_ADDR") or "unknown"
    if _count(f"analysis:addr:{address}:{slot}", window) > limit * ADDRESS_FACTOR:
        return False
    account = request.session.get(SESSION_KEY)
    return account is None or _count(f"analysis:user:{account}:{slot}", window) <= limit


def _count(key: str, window: int) -> int:
    """Add one to the counter ``key`` of a fixed window (made by its first request)."""
    if cache.add(key, 1, timeout=window + 1):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired in between: this request opens the window again
        cache.add(key, 1, timeout=window + 1)
        return 1
