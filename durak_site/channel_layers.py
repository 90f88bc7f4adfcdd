"""The site's channel layers: one per mode.

* Embedded: ``ThreadSafeInMemoryChannelLayer``. Channels' ``InMemoryChannelLayer`` keeps
  ``asyncio.Queue`` objects that belong to the serving event loop. A ``group_send`` from another
  thread (the embedded Celery worker, via ``async_to_sync``) puts into those queues from a foreign
  loop: the waiting consumer is not woken until daphne's next timer tick (0.5-1 s late), and under
  pytest never (``tests/site/test_channel_layer.py``). The subclass remembers the loop its
  consumers receive on and hands every call made from another loop over to it.
* Redis: ``ResyncingPubSubChannelLayer``, channels_redis's pub/sub layer (about 3x cheaper per
  broadcast than its list-based ``RedisChannelLayer``, as measured when it replaced that layer).
  It delivers at most once, which the consumers allow for: broadcasts are thin "changed" events,
  each socket renders its view from the database, and the match, lobby and tournament sockets
  start from the current view on every (re)connect, rendered after joining the group
  (``group_add`` returns once ``SUBSCRIBE`` is sent, not confirmed; the render reads what any
  event in that instant was about). The one gap is a broken Redis connection: redis-py reconnects
  and resubscribes by itself, silently, and whatever was published meanwhile is gone while the
  sockets stay open showing an old view. The subclass makes every consumer of the process fail on
  its next receive instead (``SubscriptionLost``): daphne closes the socket with 1011, the browser
  (htmx's ws extension) reconnects and starts over.
"""

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close

logger = logging.getLogger(__name__)


class ThreadSafeInMemoryChannelLayer(InMemoryChannelLayer):
    """``InMemoryChannelLayer`` whose mutating calls always run on the consumers' event loop."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._home_loop: asyncio.AbstractEventLoop | None = None

    async def _on_home_loop[T](self, call: Coroutine[Any, Any, T]) -> T:
        """Await ``call`` on the home loop; run it here when there is none (or it is this one)."""
        home = self._home_loop
        if home is None or home is asyncio.get_running_loop() or home.is_closed() or not home.is_running():
            return await call
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(call, home))

    async def receive(self, channel: str) -> dict[str, Any]:
        self._home_loop = asyncio.get_running_loop()
        message: dict[str, Any] = await super().receive(channel)
        return message

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        await self._on_home_loop(super().send(channel, message))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self._on_home_loop(super().group_send(group, message))

    async def group_add(self, group: str, channel: str) -> None:
        await self._on_home_loop(super().group_add(group, channel))

    async def group_discard(self, group: str, channel: str) -> None:
        await self._on_home_loop(super().group_discard(group, channel))

    async def flush(self) -> None:
        await self._on_home_loop(super().flush())


class SubscriptionLost(ConnectionError):
    """The layer's Redis subscription broke (and was renewed): events may have been lost."""


#: Put into every channel's queue when the subscription is renewed; ``receive`` raises on it.
_LOST: Any = object()

#: How often the watchdog of a subscription looks for silence (``_ResyncingShard``).
SILENCE_CHECK_SECONDS = 0.5


class ResyncingPubSubChannelLayer(RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` whose consumers end when its Redis subscription was renewed.

    It relies on channels_redis 4.3 internals (the per-loop layer, its shards, their redis-py
    ``PubSub``); ``tests/site/test_pubsub_layer.py`` fails if they change.
    """

    def _get_layer(self) -> "_ResyncingLoopLayer":
        """channels_redis's ``_get_layer``, building this module's loop layer."""
        loop = asyncio.get_running_loop()
        layer: _ResyncingLoopLayer | None = self._layers.get(loop)
        if layer is None:
            layer = _ResyncingLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer

    def deserialize(self, message: Any) -> Any:
        return message if message is _LOST else super().deserialize(message)


class _ResyncingLoopLayer(RedisPubSubLoopLayer):
    """The layer of one event loop: its channels' queues, groups and Redis connections."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards: list[RedisSingleShardConnection] = [
            _ResyncingShard(shard.host, self) for shard in self._shards
        ]

    def subscription_renewed(self) -> None:
        """Tell every channel of this loop, whether its consumer waits in ``receive`` right now or
        is busy handling a message: its next ``receive`` raises."""
        for queue in self.channels.values():
            queue.put_nowait(_LOST)
        logger.warning("Redis subscription renewed: ending %d consumers so they resync", len(self.channels))

    async def receive(self, channel: str) -> dict[str, Any]:
        message: dict[str, Any] = await super().receive(channel)
        if message is _LOST:
            await self._forget(channel)
            raise SubscriptionLost("the Redis subscription broke; events may have been lost")
        return message

    async def _forget(self, channel: str) -> None:
        """Drop a channel whose consumer is ending, with its group memberships: nobody will call
        ``group_discard`` for it (channels_redis cleans up only a cancelled ``receive``)."""
        self.channels.pop(channel, None)
        names = [channel]
        for group_channel, members in list(self.groups.items()):
            members.discard(channel)
            if not members:
                del self.groups[group_channel]
                names.append(group_channel)
        for name in names:
            try:
                await self._get_shard(name).unsubscribe(name)
            except Exception:  # Redis gone again: the consumer ends all the same
                logger.warning("could not unsubscribe %s", name, exc_info=True)


class _ResyncingShard(RedisSingleShardConnection):
    """The connections to one Redis host; reports when redis-py renews the subscription, drops a
    subscription that went silent so that redis-py renews it, and publishes without waiting for
    the other publishes of the process (``publish``).

    Silent: a half-open connection (a NAT or load balancer that forgot the flow, a host gone
    without a reset). Nothing fails, reads just never return, so redis-py would wait for ever and
    every socket of the process would keep showing an old view. With ``health_check_interval`` in
    the host's options, redis-py pings an idle subscription once per interval and notes every
    reply (``next_health_check`` moves on with each read); a watchdog beside the receiving loop
    disconnects the subscription when that stops, and the next read reconnects and resubscribes
    as after a restart (``_renewed``). Without the option nothing is watched.
    """

    async def _do_receiving(self) -> None:
        watchdog = asyncio.ensure_future(self._watch_silence())
        try:
            await super()._do_receiving()
        finally:
            watchdog.cancel()

    async def _watch_silence(self) -> None:
        """Disconnect the subscription once nothing has come from Redis for two health-check
        intervals, seen on two checks in a row (a subscription made a moment ago may not have read
        its confirmation yet)."""
        suspect: float | None = None
        while True:
            await asyncio.sleep(SILENCE_CHECK_SECONDS)
            pubsub = self._pubsub
            connection = pubsub.connection if pubsub is not None else None
            if connection is None or not connection.health_check_interval:
                continue
            interval = connection.health_check_interval
            if not connection.is_connected or not pubsub.subscribed:
                suspect = None
                continue
            due = connection.next_health_check  # the last read plus one interval
            if asyncio.get_running_loop().time() < due + interval:
                suspect = None
            elif suspect != due:
                suspect = due
            else:
                logger.warning("Redis subscription silent for %.0f s: reconnecting", 2 * interval)
                suspect = None
                await connection.disconnect()

    async def publish(self, channel: str, message: Any) -> None:
        """``PUBLISH`` without the shard's lock, which channels_redis holds around each one.

        Under the lock every broadcast of the process waited for the one before to be answered,
        a Redis round trip through a busy event loop each: at 200 tables and 1 s a move's
        ``PUBLISH`` took 0.1-0.2 s at the median, a quarter to a half of its latency, while a
        third of the machine was idle (``docs/performance.md``). The lock guards the
        subscription's state, which a publish does not touch; redis-py's client takes a
        connection of its pool for each command, so publishes in flight at once each have their
        own. Their order is not kept, and need not be: every event is a thin "changed" whose
        receiver draws what is committed now (a match's sockets drop a version already drawn)."""
        self._ensure_redis()
        await self._redis.publish(channel, message)

    async def subscribe(self, channel: str) -> None:
        await super().subscribe(channel)
        # redis-py calls a connection's callbacks on every connect after it was registered, so
        # only on reconnects (the first connect is over by now), after PubSub's own resubscribe.
        # A weak reference, registered once however often this runs.
        self._pubsub.connection.register_connect_callback(self._renewed)

    def _renewed(self, connection: object) -> None:
        self.channel_layer.subscription_renewed()
