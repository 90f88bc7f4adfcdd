"""Heartbeats in the cache: when beat's clock last ticked and when a worker of each queue last ran
a task (``ops.health`` reads them for the readiness answer).

Why in the cache: it is what every process already shares (Redis in the services mode; in the
embedded mode the worker and beat are threads of the serving process, and so is its cache). One
``SET`` per tick is cheap next to the clock's own query. A heartbeat that cannot be written (Redis
gone) is dropped quietly: readiness then reports Redis, not a crash of the clock.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import cache

logger = logging.getLogger(__name__)

#: Heartbeats outlive any threshold a readiness check would allow.
TTL_SECONDS = 3600


def _key(name: str) -> str:
    return f"heartbeat:{name}"


def beat(name: str) -> None:
    """Record that ``name`` (``"clock"``, ``"queue:bots"``...) is alive now."""
    try:
        cache.set(_key(name), time.time(), timeout=TTL_SECONDS)
    except Exception:
        logger.debug("heartbeat %s not recorded", name, exc_info=True)


def age(name: str) -> float | None:
    """Seconds since ``name`` last beat, or ``None`` when it never did (or expired). Raises when
    the cache cannot be read."""
    seen = cache.get(_key(name))
    return None if seen is None else max(0.0, time.time() - float(seen))
