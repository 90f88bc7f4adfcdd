"""With DATABASE_URL / REDIS_URL set the suite itself runs on the real services.

These fail loudly when a URL is set but its service is down; they skip only when it is unset.
"""

from typing import Any, cast

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection

from play import ratelimit

from .layers import join, next_message


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_test_database_is_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.redis
def test_the_channel_layer_goes_through_redis() -> None:
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)

    async def round_trip() -> dict[str, object] | None:
        channel = await layer.new_channel()
        await join(layer, "ci-probe", channel)
        await layer.group_send("ci-probe", {"type": "probe", "n": 1})
        message = await next_message(layer, channel)
        await layer.group_discard("ci-probe", channel)
        return message

    assert async_to_sync(round_trip)() == {"type": "probe", "n": 1}


@pytest.mark.redis
def test_the_cache_for_rate_limits_is_redis() -> None:
    cache = caches["default"]
    assert isinstance(cache, RedisCache)
    cache.set("ci-probe", 7, 5)
    assert cache.get("ci-probe") == 7


@pytest.mark.redis
def test_sockets_share_one_cache_client_and_connection() -> None:
    """Each task (a socket) gets its own cache backend from Django's ``caches``; they all share
    one Redis client, so a socket's first rate-limited frame opens no connection of its own."""
    import asyncio

    import redis
    from asgiref.sync import sync_to_async
    from django.conf import settings

    server = redis.Redis.from_url(settings.REDIS_URL)
    user = 10**9 + 7

    async def socket() -> Any:
        for _ in range(3):
            await sync_to_async(ratelimit.user_allows, thread_sensitive=False)(user)
        return await sync_to_async(lambda: cast(Any, caches["default"])._cache.get_client(write=True))()

    async def sockets() -> list[Any]:
        return list(await asyncio.gather(*(asyncio.create_task(socket()) for _ in range(20))))

    ratelimit.user_allows(user)  # this thread's first call may connect
    before = server.info("stats")["total_connections_received"]
    clients = async_to_sync(sockets)()
    opened = server.info("stats")["total_connections_received"] - before
    assert len({id(client) for client in clients}) == 1
    # One per socket before; now at most one per thread of the pool that ran a command at once.
    assert opened < len(clients)
