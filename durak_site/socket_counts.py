"""The counts behind the websocket limits: handshakes per key (a token bucket) and open sockets
per key (leases), in Redis when ``REDIS_URL`` is set, so every daphne shares them, else in this
process.

Why leases for open sockets, not a counter: a daphne that dies never says which sockets it held,
and a counter would keep them for ever, until the address were refused for good. Each open socket
is a member of its key's sorted set, scored with the time its lease runs out; the process renews
the leases of the sockets it holds every ``LEASE_SECONDS / 3`` (one pipeline for all of them), and
every admission first drops the expired ones. A dead process's sockets are free again within
``LEASE_SECONDS``.

Everything here runs on the event loop without a thread: Redis through ``redis.asyncio`` (one
client per event loop), the in-process counts in plain dicts. A handshake refused here has cost
no thread hop and no database query.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import defaultdict
from enum import Enum
from typing import Any, Protocol

from django.conf import settings
from redis import asyncio as aioredis
from redis.exceptions import RedisError

from .buckets import TokenBucket

logger = logging.getLogger(__name__)

#: Seconds an open socket's lease lasts unless its process renews it.
LEASE_SECONDS = 60.0
#: Redis connections of the counts per process (each admission holds one for a round trip).
POOL_SIZE = 32
#: Seconds between two warnings that Redis could not be asked.
WARN_EVERY_SECONDS = 10.0
#: Buckets kept in process before the full ones (nothing to remember) are dropped.
LOCAL_BUCKETS_KEPT = 10_000


class Refusal(Enum):
    """Why a handshake was refused."""

    RATE = "handshake rate"
    OPEN = "open sockets"


class Counts(Protocol):
    async def admit(
        self, key: str, socket_id: str, *, open_limit: int, rate: float = 0.0, burst: int = 0
    ) -> Refusal | None:
        """Count a handshake under ``key`` (when ``rate``: a token of its bucket) and hold a place
        for ``socket_id`` among its open sockets; the reason when refused (nothing held then)."""
        ...

    async def release(self, key: str, socket_id: str) -> None:
        """``socket_id`` under ``key`` is closed."""
        ...


class LocalCounts:
    """The counts of one process (no Redis: the embedded setup has one process anyway)."""

    def __init__(self) -> None:
        self.buckets: dict[str, TokenBucket] = {}
        self.open: defaultdict[str, set[str]] = defaultdict(set)

    async def admit(
        self, key: str, socket_id: str, *, open_limit: int, rate: float = 0.0, burst: int = 0
    ) -> Refusal | None:
        if rate > 0:
            if len(self.buckets) > LOCAL_BUCKETS_KEPT:
                self._drop_full_buckets()
            bucket = self.buckets.setdefault(key, TokenBucket(rate=rate, burst=burst))
            bucket.rate, bucket.burst = rate, burst  # as the settings say now
            if not bucket.take():
                return Refusal.RATE
        held = self.open[key]
        if len(held) >= open_limit:
            return Refusal.OPEN
        held.add(socket_id)
        return None

    async def release(self, key: str, socket_id: str) -> None:
        held = self.open.get(key)
        if held is not None:
            held.discard(socket_id)
            if not held:
                del self.open[key]

    def _drop_full_buckets(self) -> None:
        now = time.monotonic()
        for key in [key for key, bucket in self.buckets.items() if bucket.refill(now=now) >= bucket.burst]:
            del self.buckets[key]


#: KEYS: the bucket (a hash), the open sockets (a sorted set by lease end).
#: ARGV: now, rate, burst, open limit, socket id, lease seconds. Returns 0, 1 (rate) or 2 (open).
ADMIT_SCRIPT = """
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local lease = tonumber(ARGV[6])
if rate > 0 then
  local stored = redis.call('HMGET', KEYS[1], 't', 's')
  local tokens = tonumber(stored[1]) or burst
  local stamp = tonumber(stored[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
  local refused = tokens < 1
  if not refused then tokens = tokens - 1 end
  -- The stamp never goes back: calls sent at once arrive in any order, and a late one with an
  -- older time would otherwise have the same seconds refilled again.
  redis.call('HSET', KEYS[1], 't', tostring(tokens), 's', tostring(math.max(now, stamp)))
  redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
  if refused then return 1 end
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 2 end
redis.call('ZADD', KEYS[2], now + lease, ARGV[5])
redis.call('EXPIRE', KEYS[2], math.ceil(lease) + 1)
return 0
"""


class RedisCounts:
    """The counts every process shares, in Redis (keys under ``<prefix>ws:``)."""

    def __init__(self, url: str, prefix: str = "durak:ws:") -> None:
        self.url = url
        self.prefix = prefix
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[Any, Any]] = (
            weakref.WeakKeyDictionary()
        )
        #: The sockets this process holds, by their open-set key, whose leases it renews.
        self.held: defaultdict[str, set[str]] = defaultdict(set)
        self._renewer: asyncio.Task[None] | None = None
        self._warned = -WARN_EVERY_SECONDS
        #: The counts used while Redis fails, and the sockets admitted by them.
        self.fallback = LocalCounts()
        self.held_locally: set[tuple[str, str]] = set()

    def _client(self) -> Any:
        return self._connected()[0]

    def _connected(self) -> tuple[Any, Any]:
        """This event loop's client and its admission script."""
        loop = asyncio.get_running_loop()
        found = self._clients.get(loop)
        if found is None:
            # A bounded pool that queues (a flood must not open a connection per handshake, nor be
            # admitted unchecked when they are all busy) and short timeouts (a Redis that does not
            # answer must not hold handshakes for long).
            pool = aioredis.BlockingConnectionPool.from_url(
                self.url, max_connections=POOL_SIZE, timeout=2, socket_timeout=1, socket_connect_timeout=1
            )
            client = aioredis.Redis(connection_pool=pool)
            found = self._clients[loop] = (client, client.register_script(ADMIT_SCRIPT))
        return found

    async def admit(
        self, key: str, socket_id: str, *, open_limit: int, rate: float = 0.0, burst: int = 0
    ) -> Refusal | None:
        _client, script = self._connected()
        open_key = f"{self.prefix}open:{key}"
        try:
            verdict = await script(
                keys=[f"{self.prefix}rate:{key}", open_key],
                args=[time.time(), rate, burst, open_limit, socket_id, LEASE_SECONDS],
            )
        except (RedisError, OSError) as error:
            # Redis away, or every connection busy (a loop starved by a flood): this process's
            # own counts stand in, so the limits still hold per process, never lifted.
            self._warn("websocket limits counted in this process only (Redis: %s)", error)
            refusal = await self.fallback.admit(key, socket_id, open_limit=open_limit, rate=rate, burst=burst)
            if refusal is None:
                self.held_locally.add((key, socket_id))
            return refusal
        if int(verdict) == 1:
            return Refusal.RATE
        if int(verdict) == 2:
            return Refusal.OPEN
        self.held[open_key].add(socket_id)
        self._renew_soon()
        return None

    async def release(self, key: str, socket_id: str) -> None:
        if (key, socket_id) in self.held_locally:
            self.held_locally.discard((key, socket_id))
            await self.fallback.release(key, socket_id)
            return
        open_key = f"{self.prefix}open:{key}"
        held = self.held.get(open_key)
        if held is not None:
            held.discard(socket_id)
            if not held:
                del self.held[open_key]
        if not self.held and self._renewer is not None:
            self._renewer.cancel()
            self._renewer = None
        try:
            await self._client().zrem(open_key, socket_id)
        except (RedisError, OSError) as error:  # the lease runs out by itself
            self._warn("websocket lease not released (Redis: %s)", error)

    def _warn(self, message: str, error: Exception) -> None:
        """Say that Redis failed, once every ``WARN_EVERY_SECONDS`` (every handshake fails then)."""
        now = time.monotonic()
        if now - self._warned >= WARN_EVERY_SECONDS:
            self._warned = now
            logger.warning(message, error)

    def _renew_soon(self) -> None:
        """Run the renewer while this process holds sockets (it ends when they are all closed)."""
        loop = asyncio.get_running_loop()
        if self._renewer is None or self._renewer.done() or self._renewer.get_loop() is not loop:
            self._renewer = loop.create_task(self._renew())

    async def _renew(self) -> None:
        while self.held:
            await asyncio.sleep(LEASE_SECONDS / 3)
            try:
                pipeline = self._client().pipeline(transaction=False)
                until = time.time() + LEASE_SECONDS
                for open_key, sockets in list(self.held.items()):
                    pipeline.zadd(open_key, dict.fromkeys(sockets, until), xx=True)
                    pipeline.expire(open_key, int(LEASE_SECONDS) + 1)
                await pipeline.execute()
            except (RedisError, OSError) as error:
                self._warn("websocket leases not renewed (Redis: %s)", error)


_counts: dict[str, Counts] = {}


def counts() -> Counts:
    """This process's counts: in Redis when ``settings.REDIS_URL`` is set, else in process."""
    url = str(getattr(settings, "REDIS_URL", "") or "")
    found = _counts.get(url)
    if found is None:
        found = _counts[url] = RedisCounts(url) if url else LocalCounts()
    return found
