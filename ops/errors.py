"""Errors in the last hour, for the staff's ops page: a logging handler counts every ERROR record,
one counter per minute, in Redis when the site has one (so every process adds to the same
numbers), else in the process's cache (the embedded mode: one process).

Its own Redis client with a short timeout, not the cache's: an ERROR is often logged because a
service is failing, and counting it must never hold up the code that logged it for long.
"""

from __future__ import annotations

import logging
import threading
import time
from functools import cache
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache as django_cache

#: Counters of minutes more than an hour old are not needed: they expire.
KEEP_SECONDS = 3700
TIMEOUT_SECONDS = 0.25
_busy = threading.local()


def _key(minute: int) -> str:
    return f"ops:errors:{minute}"


@cache
def _redis(url: str) -> Any:
    return redis.Redis.from_url(url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS)


def _count(key: str) -> None:
    if settings.REDIS_URL:
        with _redis(settings.REDIS_URL).pipeline(transaction=False) as pipe:
            pipe.incr(key).expire(key, KEEP_SECONDS).execute()
    elif not django_cache.add(key, 1, timeout=KEEP_SECONDS):
        django_cache.incr(key)


class ErrorCountHandler(logging.Handler):
    """Adds one to this minute's counter for every record it handles (configure it at ERROR).

    It never fails the code that logged, and a record logged while it counts is not counted again."""

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(_busy, "on", False):
            return
        _busy.on = True
        try:
            _count(_key(int(time.time() // 60)))
        except Exception:  # Redis is gone: the log line itself still says what happened
            return
        finally:
            _busy.on = False


def errors_last_hour() -> int:
    """ERROR records counted in the last 60 minutes (this one included)."""
    now = int(time.time() // 60)
    keys = [_key(minute) for minute in range(now - 59, now + 1)]
    if settings.REDIS_URL:
        values = _redis(settings.REDIS_URL).mget(keys)
    else:
        values = list(django_cache.get_many(keys).values())
    return sum(int(value) for value in values if value is not None)
