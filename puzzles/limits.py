"""How many puzzle moves a client may send: per client address and per account, counted in the cache
(Redis when ``REDIS_URL`` is set, so every daphne shares the count) before any database work.

A person moves every few seconds at most; a script posting moves in a loop is stopped
here before the view reads anything: the address is counted first, with nothing read, and the
account is the session's user id, without a read of the user table.
``settings.PUZZLES_MOVE_RATE`` (moves, window seconds) is the account's limit; an address may
send four times as many, for the people behind one shared address.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.http import HttpRequest

#: An address's allowance over an account's: a school or a family shares one address.
ADDRESS_FACTOR = 4


def move_allowed(request: HttpRequest, *, now: float | None = None) -> bool:
    """Count one move for the request's address and its account; False once either is over."""
    limit, window = settings.PUZZLES_MOVE_RATE
    slot = int((time.time() if now is None else now) // window)
    address = request.META.get("REMOTE_ADDR") or "unknown"
    if _count(f"puzzles:moves:addr:{address}:{slot}", window) > limit * ADDRESS_FACTOR:
        return False
    account = request.session.get(SESSION_KEY)
    return account is None or _count(f"puzzles:moves:user:{account}:{slot}", window) <= limit


def _count(key: str, window: int) -> int:
    """Add one to the counter ``key`` of a fixed window (made by its first move)."""
    if cache.add(key, 1, timeout=window + 1):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired in between: this move opens the window again
        cache.add(key, 1, timeout=window + 1)
        return 1
