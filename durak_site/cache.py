"""Django's Redis cache with one client per process instead of one per socket.

Why: Django keeps its cache backends in an ``asgiref.Local`` that follows the async context, so
every socket (each runs in a task of its own) built its own ``RedisCache``, and with it a
connection pool, a new Redis connection and a lookup of redis-py's version on disk, on its first
frame; and every cache call built a new redis-py ``Redis`` client around the pool (hundreds of
response callbacks copied each time). Under load that was most of what the per-user rate limit
of a move cost (``play.ratelimit``; ``docs/performance.md``).

Here every backend of the same settings shares one ``RedisCacheClient`` per process, and that
client hands out one redis-py client per server. Both are safe to share between threads: redis-py
takes a connection from the pool for each command and gives it back, and after a fork (Celery's
pool) the pool notices the new process and opens its own connections.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[tuple[str, ...], str], SharedRedisCacheClient] = {}
_clients_lock = threading.Lock()


class SharedRedisCacheClient(RedisCacheClient):
    """``RedisCacheClient`` that keeps the redis-py client it made around each of its pools."""

    # Django's own attribute, which django-stubs leave out.
    _client: Any

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        #: By the id of the pool (each client holds its pool, so the id stays that pool's).
        self._redis_clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._redis_clients.get(id(pool))
        if client is None:
            client = self._redis_clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class SharedRedisCache(RedisCache):
    """``RedisCache`` whose client every backend of the same settings in the process shares."""

    _servers: list[str]
    _options: dict[str, Any]

    @cached_property
    def _cache(self) -> SharedRedisCacheClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = SharedRedisCacheClient(self._servers, **self._options)
        return client
