"""With DATABASE_URL / REDIS_URL set the suite itself runs on the real services.

These fail loudly when a URL is set but its service is down; they skip only when it is unset.
"""

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.core.cache import caches
from django.db import connection

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
    assert type(cache).__name__ == "RedisCache"
    cache.set("ci-probe", 7, 5)
    assert cache.get("ci-probe") == 7
