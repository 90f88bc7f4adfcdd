"""Fixed-window counts in the cache (Redis when ``REDIS_URL`` is set, so every process shares one
count): how many frames, lines or requests one user or one client address sent in the current
window. Live play counts a user's socket frames and chat lines with ``window_allows``; the
lessons, the puzzles and the analysis board count each request with ``request_allows`` before
they read anything.
"""

from __future__ import annotations

import time

from django.contrib.auth import SESSION_KEY
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest

#: An address's allowance over an account's in ``request_allows``: a school or a family shares
#: one address.
ADDRESS_FACTOR = 4


def window_allows(key: str, *, limit: int, window: int, now: float | None = None) -> bool:
    """Count one event under ``key`` in the current fixed window of ``window`` seconds; False once
    more than ``limit`` were counted in it (every process shares the count: it is in the cache)."""
    now = time.time() if now is None else now
    return _count(f"{key}:{int(now // window)}", expiry=int(window) + 1) <= limit


def request_allows(
    request: HttpRequest, key: str, rate: tuple[int, int], *, now: float | None = None
) -> bool:
    """Count one request under ``key`` for its client address and its account; False once either
    is over. ``rate`` is (requests, window seconds) for an account; an address may send
    ``ADDRESS_FACTOR`` times as many.

    Nothing is read first: the address is counted before the session is looked at, and the
    account is the session's user id, without a read of the user table. ``REMOTE_ADDR`` is the
    client's address behind the trusted proxies (``durak_site.proxy``)."""
    limit, window = rate
    address = request.META.get("REMOTE_ADDR") or "unknown"
    if not window_allows(f"{key}:addr:{address}", limit=limit * ADDRESS_FACTOR, window=window, now=now):
        return False
    account = request.session.get(SESSION_KEY)
    return account is None or window_allows(f"{key}:user:{account}", limit=limit, window=window, now=now)


def _count(key: str, *, expiry: int) -> int:
    """Add one to the cache's counter ``key`` (made by the first, kept ``expiry`` seconds).

    On Redis one round trip: ``INCR`` and ``EXPIRE … NX`` in a pipeline, where Django's ``incr``
    takes two (``EXISTS``, then ``INCRBY``) and ``add`` a third for the window's first event; every
    move pays this. It uses the backend's client and key scheme (``RedisCache._cache``, pinned by
    ``tests/hostile/test_ratelimit.py``), so the counter stays an ordinary cache entry."""
    backend = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(backend, RedisCache):
        name = backend.make_and_validate_key(key)
        pipeline = backend._cache.get_client(name, write=True).pipeline(transaction=False)
        pipeline.incr(name)
        pipeline.expire(name, expiry, nx=True)
        count, _expiry_set = pipeline.execute()
        return int(count)
    if backend.add(key, 1, timeout=expiry):
        return 1
    try:
        return int(backend.incr(key))
    except ValueError:  # expired in between: this event opens the next window
        backend.add(key, 1, timeout=expiry)
        return 1
