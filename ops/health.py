"""Liveness and readiness: what a load balancer and a supervisor ask of a serving process.

Each check answers ``"ok"``, ``"fail"`` or ``"skipped"`` (the check does not apply to this mode:
the embedded defaults have no Redis and no broker to reach). Only those words leave the server;
why a check failed goes to the log, never to the answer (no host names, no exception text).

* ``database``: a ``SELECT 1`` on the default database.
* ``cache``: a write and a read of a key (Redis in the services mode, the process's memory else).
* ``channel_layer``: a ``PING`` to the channel layer's Redis (skipped for the in-process layer).
* ``broker``: a ``PING`` to Celery's Redis broker (skipped for the embedded ``memory://`` one).
* ``clock``: beat's ``games.clock`` ticked within ``CLOCK_SECONDS`` (its heartbeat, written by the
  task, so it also says a worker of the ``celery`` queue runs).
* ``queue:<name>``: a worker of each queue ran beat's ping (``ops.tasks.ping``) within
  ``QUEUE_SECONDS``.

``WEB_CHECKS`` are what a page or a socket needs right now; a load balancer asks only those
(``?web``), so a stopped review worker does not take the web servers out of rotation.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from typing import Final, Literal
from urllib.parse import urlsplit

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from durak_site import heartbeat

logger = logging.getLogger(__name__)

CheckStatus = Literal["ok", "fail", "skipped"]

#: The clock ticks twice a second: a few seconds without a tick means beat or the worker is gone.
CLOCK_SECONDS: Final = 10.0
#: Beat pings every queue every ``PING_SECONDS`` (``durak_site.celery``); three missed is a failure.
PING_SECONDS: Final = 15.0
QUEUE_SECONDS: Final = 3 * PING_SECONDS + 5
#: The Celery queues a worker must be seen on (``settings.CELERY_TASK_QUEUES``).
QUEUES: Final = ("celery", "bots", "reviews")
#: How long a Redis ping, or the wait for a pooled database connection, may take before the
#: check fails.
REDIS_TIMEOUT: Final = 1.0
DATABASE_TIMEOUT: Final = 2.0
WEB_CHECKS: Final = frozenset({"database", "cache", "channel_layer", "broker"})


def database() -> CheckStatus:
    """A ``SELECT 1``: through the process's pool when there is one, waiting at most
    ``DATABASE_TIMEOUT`` for a connection (the pool's own wait, for requests, is longer)."""
    try:
        pool = getattr(connection, "pool", None)
        if pool is not None:
            pool.open()  # as Django does on its first connection (a no-op once open)
            with pool.connection(timeout=DATABASE_TIMEOUT) as pooled:
                pooled.execute("SELECT 1")
        else:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
    except Exception:
        logger.warning("readiness: the database did not answer", exc_info=True)
        connection.close()  # the next check connects anew
        return "fail"
    return "ok"


def cache_roundtrip() -> CheckStatus:
    key, value = "health:probe", uuid.uuid4().hex
    try:
        cache.set(key, value, timeout=10)
        if cache.get(key) != value:
            raise RuntimeError("the cache did not keep a value")
    except Exception:
        logger.warning("readiness: the cache did not answer", exc_info=True)
        return "fail"
    return "ok"


def redis_ping(url: str) -> CheckStatus:
    try:
        client = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)
        try:
            client.ping()
        finally:
            client.close()
    except Exception:
        logger.warning("readiness: Redis did not answer", exc_info=True)
        return "fail"
    return "ok"


def channel_layer() -> CheckStatus:
    return redis_ping(settings.REDIS_URL) if settings.REDIS_URL else "skipped"


def broker() -> CheckStatus:
    url = settings.CELERY_BROKER_URL
    if settings.CELERY_EMBEDDED_WORKER or urlsplit(url).scheme not in {"redis", "rediss"}:
        return "skipped"
    return redis_ping(url)


def fresh(name: str, limit: float) -> CheckStatus:
    """Whether heartbeat ``name`` beat within ``limit`` seconds."""
    try:
        age = heartbeat.age(name)
    except Exception:
        logger.warning("readiness: heartbeat %s unreadable", name, exc_info=True)
        return "fail"
    return "ok" if age is not None and age <= limit else "fail"


def all_checks() -> dict[str, Callable[[], CheckStatus]]:
    checks: dict[str, Callable[[], CheckStatus]] = {
        "database": database,
        "cache": cache_roundtrip,
        "channel_layer": channel_layer,
        "broker": broker,
        "clock": lambda: fresh("clock", CLOCK_SECONDS),
    }
    for queue in QUEUES:
        checks[f"queue:{queue}"] = lambda queue=queue: fresh(f"queue:{queue}", QUEUE_SECONDS)  # type: ignore[misc]
    return checks


#: The last answer per scope and when it was made: a flood of probes costs one check a second.
_memo: dict[bool, tuple[float, dict[str, CheckStatus]]] = {}
MEMO_SECONDS: Final = 1.0


def readiness(*, web_only: bool = False) -> dict[str, CheckStatus]:
    """Every check's status (only ``WEB_CHECKS`` when ``web_only``), at most once a second."""
    now = time.monotonic()
    memo = _memo.get(web_only)
    if memo is not None and now - memo[0] < MEMO_SECONDS:
        return memo[1]
    statuses = {name: check() for name, check in all_checks().items() if not web_only or name in WEB_CHECKS}
    _memo[web_only] = (now, statuses)
    return statuses


def ready(statuses: dict[str, CheckStatus]) -> bool:
    return all(status != "fail" for status in statuses.values())
