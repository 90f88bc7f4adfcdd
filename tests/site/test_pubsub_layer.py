"""The Redis channel layer (``durak_site.channel_layers.ResyncingPubSubChannelLayer``).

Against the run's Redis: parallel test processes never share a group, an idle subscription
outlives the socket timeout, a broadcast on a silent connection is sent again after it,
and a subscription that Redis dropped, or that went silent (a half-open connection), ends the
consumers of the process (so their sockets resync) while the layer itself carries on. The first
tests need no Redis: they pin the channels_redis internals the layer builds on, and that a
process's broadcasts in flight do not wait for one another.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers
from django.conf import settings
from redis.asyncio.connection import Connection as RedisConnection

from durak_site.channel_layers import (
    _LOST,
    ResyncingPubSubChannelLayer,
    SubscriptionLost,
    _ResyncingLoopLayer,
    _ResyncingShard,
)

from .helpers import ROOT
from .layers import join, next_message, until_receiving
from .stall import StallingProxy

# --- without Redis: the internals -------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_public_calls_go_through_the_resyncing_loop_layer() -> None:
    """If channels_redis stops building its per-loop layer through ``_get_layer`` or its shards
    from ``host``, the override is silently bypassed: this fails instead."""
    layer = ResyncingPubSubChannelLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}], prefix="pin.")
    await layer.group_discard("nobody", "pin.specific.x")  # a public call that needs no Redis
    (loop_layer,) = layer._layers.values()
    assert isinstance(loop_layer, _ResyncingLoopLayer)
    assert [type(shard) for shard in loop_layer._shards] == [_ResyncingShard]
    assert loop_layer._shards[0].host == {"address": "redis://127.0.0.1:1/0"}
    assert layer.deserialize(_LOST) is _LOST
    assert layer.deserialize(layer.serialize({"type": "x"})) == {"type": "x"}


@pytest.mark.asyncio
async def test_a_renewed_subscription_ends_every_consumer_and_forgets_its_groups() -> None:
    """A consumer waiting in ``receive`` and one busy elsewhere both get ``SubscriptionLost``
    (after the messages that came before), and their channels and groups are dropped."""
    layer = ResyncingPubSubChannelLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}], prefix="pin.")
    await layer.group_discard("nobody", "pin.specific.x")
    loop_layer = layer._layers[asyncio.get_running_loop()]
    waiting, busy = "pin.specific.waiting", "pin.specific.busy"
    for channel in (waiting, busy):
        loop_layer.channels[channel] = asyncio.Queue()  # what new_channel makes, minus SUBSCRIBE
    loop_layer.groups = {"pin.__group__match-1": {waiting, busy}, "pin.__group__lobby": {busy}}
    loop_layer.channels[busy].put_nowait(layer.serialize({"type": "match.changed", "version": 3}))
    receiving = asyncio.create_task(layer.receive(waiting))
    await asyncio.sleep(0)

    loop_layer._shards[0]._renewed(None)  # what redis-py calls on a reconnect

    with pytest.raises(SubscriptionLost):
        await asyncio.wait_for(receiving, 1)
    assert await layer.receive(busy) == {"type": "match.changed", "version": 3}
    with pytest.raises(SubscriptionLost):
        await layer.receive(busy)
    assert loop_layer.channels == {}
    assert loop_layer.groups == {}


@pytest.mark.asyncio
async def test_broadcasts_in_flight_do_not_wait_for_one_another() -> None:
    """channels_redis holds a shard's lock around each ``PUBLISH``, so a process's broadcasts
    queued behind one another's round trips; the site's shard publishes without it."""
    layer = ResyncingPubSubChannelLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}], prefix="pin.")
    await layer.group_discard("nobody", "pin.specific.x")
    shard = layer._layers[asyncio.get_running_loop()]._shards[0]
    answered = asyncio.Event()
    published: list[str] = []

    class SlowRedis:
        async def publish(self, channel: str, message: bytes) -> None:
            published.append(channel)
            await answered.wait()  # Redis has not answered yet

    shard._redis = SlowRedis()
    try:
        sends = [
            asyncio.create_task(layer.group_send(f"match-{n}", {"type": "match.changed"})) for n in range(3)
        ]
        async with asyncio.timeout(1):
            while len(published) < 3:
                await asyncio.sleep(0.01)
        assert published == [f"pin.__group__match-{n}" for n in range(3)]
        answered.set()
        await asyncio.gather(*sends)
    finally:
        shard._redis = None  # nothing for the layer to close with the loop


# --- against the run's Redis -----------------------------------------------------------------


def configured_layer(**host: Any) -> ResyncingPubSubChannelLayer:
    """A new layer as the settings configure it, with extra connection options."""
    config = settings.CHANNEL_LAYERS[DEFAULT_CHANNEL_LAYER]["CONFIG"]
    (configured_host,) = config["hosts"]
    return ResyncingPubSubChannelLayer(**{**config, "hosts": [{**configured_host, **host}]})


@pytest.fixture
def client_name() -> str:
    """A connection name that marks this test's connections for ``CLIENT KILL``."""
    return f"durak-test-{secrets.token_hex(6)}"


def kill_connections(name: str) -> int:
    """``CLIENT KILL`` every connection named ``name`` (as a Redis restart would, for them only)."""
    server = redis.Redis.from_url(settings.REDIS_URL)
    victims = [client["id"] for client in server.client_list() if client.get("name") == name]
    for victim in victims:
        server.client_kill_filter(_id=victim)
    return len(victims)


@pytest.mark.redis
def test_the_site_uses_the_resyncing_pubsub_layer_with_health_checks() -> None:
    """The layer type, the pings its silence watchdog needs (without them it watches none) and a
    socket timeout shorter than redis-py's 5 s (what a publish on a silent connection waits)."""
    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    assert type(layer) is ResyncingPubSubChannelLayer
    (host,) = settings.CHANNEL_LAYERS[DEFAULT_CHANNEL_LAYER]["CONFIG"]["hosts"]
    assert host["health_check_interval"] > 0
    assert 0 < host["socket_timeout"] < 5


SENDER = """
import asyncio, json, sys
import django
django.setup()
from channels.layers import get_channel_layer
from django.conf import settings
from redis.asyncio.connection import Connection as RedisConnection
from durak_site.channel_layers import ResyncingPubSubChannelLayer

config = settings.CHANNEL_LAYERS["default"]["CONFIG"]

async def main():
    await get_channel_layer().group_send("isolation-probe", {"type": "probe.foreign"})
    ours = ResyncingPubSubChannelLayer(**{**config, "prefix": sys.argv[1]})
    await ours.group_send("isolation-probe", {"type": "probe.control"})
    await ours.flush()

asyncio.run(main())
print(json.dumps(config["prefix"]))
"""


@pytest.mark.redis
@pytest.mark.asyncio
@pytest.mark.parametrize("worker", ["this worker", "another worker"])
async def test_parallel_test_processes_never_share_a_group(worker: str) -> None:
    """A test process of another run on this xdist worker's Redis database, or another worker of
    this run, broadcasts to a group of the same name: nothing reaches us. It then sends with our
    prefix, which does: the two share the Redis server, only the prefix keeps them apart."""
    ours = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    other = ours if worker == "this worker" else f"gw{int(ours.removeprefix('gw')) + 1}"
    prefix = settings.CHANNEL_LAYERS[DEFAULT_CHANNEL_LAYER]["CONFIG"]["prefix"]
    layer = configured_layer()
    try:
        channel = await layer.new_channel()
        await join(layer, "isolation-probe", channel)
        env = {**os.environ, "PYTEST_XDIST_WORKER": other, "DJANGO_SETTINGS_MODULE": "durak_site.settings"}
        sender = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-c", SENDER, prefix],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert sender.returncode == 0, sender.stderr
        their_prefix = json.loads(sender.stdout.strip().splitlines()[-1])
        # The foreign broadcast was published first: had it crossed, it would come first.
        assert await next_message(layer, channel) == {"type": "probe.control"}, (prefix, their_prefix)
        assert their_prefix != prefix
    finally:
        await layer.flush()


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.parametrize(
    "options", [{}, {"health_check_interval": 1}], ids=["as configured", "pinged every second"]
)
async def test_an_idle_subscription_outlives_the_socket_timeout(options: dict[str, Any]) -> None:
    """Nothing on either connection for 7 s (redis-py 8 times a read out after the socket timeout,
    2 s here and 5 s by default): the
    next broadcast still arrives, on the same subscription (a renewed one would raise). The
    health-check pings keep it answering, so the silence watchdog leaves it alone, also with a
    ping every second."""
    layer = configured_layer(**options)
    try:
        channel = await layer.new_channel()
        await join(layer, "idle-probe", channel)
        await asyncio.sleep(7)
        await layer.group_send("idle-probe", {"type": "match.changed", "version": 2})
        assert await next_message(layer, channel) == {"type": "match.changed", "version": 2}
    finally:
        await layer.flush()


@pytest.mark.redis
@pytest.mark.asyncio
async def test_a_dropped_subscription_ends_the_consumers_and_the_layer_carries_on(client_name: str) -> None:
    """Redis drops both connections of the layer (``CLIENT KILL``, as in a restart). A consumer
    waiting in ``receive`` and one busy elsewhere both end; the next broadcast does not fail on
    the dead connection; a new consumer subscribes and receives; the old subscriptions are gone."""
    layer = configured_layer(client_name=client_name)
    try:
        waiting_channel, busy_channel = await layer.new_channel(), await layer.new_channel()
        await join(layer, "match-probe", waiting_channel)
        await join(layer, "match-probe", busy_channel)
        await layer.group_send("match-probe", {"type": "match.changed", "version": 5})
        for channel in (waiting_channel, busy_channel):
            assert await next_message(layer, channel) == {"type": "match.changed", "version": 5}
        waiting = asyncio.create_task(next_message(layer, waiting_channel, timeout=10))
        await until_receiving(layer, waiting_channel)  # the busy one has no receive pending

        assert kill_connections(client_name) == 2  # the subscription and the publishing connection

        with pytest.raises(SubscriptionLost):
            await waiting
        with pytest.raises(SubscriptionLost):
            await next_message(layer, busy_channel)
        await layer.group_send("match-probe", {"type": "match.changed", "version": 6})
        fresh = await layer.new_channel()
        await join(layer, "match-probe", fresh)
        await layer.group_send("match-probe", {"type": "match.changed", "version": 7})
        assert await next_message(layer, fresh) == {"type": "match.changed", "version": 7}
        server = redis.Redis.from_url(settings.REDIS_URL)
        counts = dict(server.pubsub_numsub(waiting_channel, busy_channel, fresh))
        assert counts == {waiting_channel.encode(): 0, busy_channel.encode(): 0, fresh.encode(): 1}
    finally:
        await layer.flush()


@pytest.mark.redis
@pytest.mark.asyncio
async def test_a_broadcast_on_a_silent_connection_is_sent_again_within_the_socket_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The publishing connection goes silent (half-open): the next broadcast's command times out
    after the configured socket timeout, not redis-py's 5 s, and its one retry, on a new
    connection, delivers it. The read that timed out says which timeout it was given, so no
    clock is read."""
    timed_out: list[float | None] = []  # the socket timeout of each read that timed out
    read_response = RedisConnection.read_response

    async def recording(self: RedisConnection, *args: Any, **kwargs: Any) -> Any:
        try:
            return await read_response(self, *args, **kwargs)
        except redis.exceptions.TimeoutError:
            timed_out.append(self.socket_timeout)
            raise

    monkeypatch.setattr(RedisConnection, "read_response", recording)
    redis_url = urlsplit(settings.REDIS_URL)
    proxy = StallingProxy(redis_url.port or 6379)
    sender = configured_layer(address=proxy.url(int(redis_url.path.strip("/") or 0)))
    receiver = configured_layer()
    (host,) = settings.CHANNEL_LAYERS[DEFAULT_CHANNEL_LAYER]["CONFIG"]["hosts"]
    try:
        channel = await receiver.new_channel()
        await join(receiver, "publish-probe", channel)
        await sender.group_send("publish-probe", {"type": "match.changed", "version": 1})
        assert await next_message(receiver, channel) == {"type": "match.changed", "version": 1}
        assert proxy.stall() == 1  # the sender has only its publishing connection

        await sender.group_send("publish-probe", {"type": "match.changed", "version": 2})
        assert await next_message(receiver, channel) == {"type": "match.changed", "version": 2}
        assert timed_out == [host["socket_timeout"]]
        assert proxy.accepted == 2
    finally:
        await sender.flush()
        await receiver.flush()
        proxy.close()


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_silent_subscription_is_dropped_and_the_consumers_resync() -> None:
    """The layer's connections go silent without closing (``StallingProxy``: a half-open
    connection, where no read ever fails or returns). Within a few health-check intervals the
    layer drops the subscription itself, as a restart would: its consumers end (so their sockets
    reconnect and resync) and a new subscription carries broadcasts again. A broadcast sent
    straight to Redis during the silence is what the consumers would otherwise never learn of."""
    redis_url = urlsplit(settings.REDIS_URL)
    proxy = StallingProxy(redis_url.port or 6379)
    layer = configured_layer(address=proxy.url(int(redis_url.path.strip("/") or 0)), health_check_interval=1)
    direct = configured_layer()
    try:
        channel = await layer.new_channel()
        await join(layer, "silent-probe", channel)
        assert proxy.stall() == 2  # the subscription and the publishing connection
        await direct.group_send("silent-probe", {"type": "match.changed", "version": 8})

        with pytest.raises(SubscriptionLost):
            await next_message(layer, channel, timeout=10)
        fresh = await layer.new_channel()
        await join(layer, "silent-probe", fresh, timeout=15)  # its first publish times out (2 s)
        await direct.group_send("silent-probe", {"type": "match.changed", "version": 9})
        assert await next_message(layer, fresh) == {"type": "match.changed", "version": 9}
        assert proxy.accepted >= 4  # both connections were made again
    finally:
        await layer.flush()
        await direct.flush()
        proxy.close()
