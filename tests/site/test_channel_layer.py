"""The embedded channel layer delivers promptly when called from another thread: a message put
into a queue of the serving loop from another loop wakes nobody until that loop happens to wake
for something else (daphne's next timer tick, 0.5-1 s later; under pytest never), so the layer
hands such calls over to the serving loop."""

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync

from durak_site.channel_layers import ThreadSafeInMemoryChannelLayer

#: Seconds after which the guard wakes a receiver that the send did not: "never", for a test.
GUARD = 30


@pytest.mark.asyncio
async def test_group_send_from_a_worker_thread_wakes_the_receiver_at_once() -> None:
    """Nothing else wakes this loop while the receiver waits (no timeout, no other task), so the
    receive can only complete because the worker's send woke it, unless the guard had to."""
    layer = ThreadSafeInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("match-42", channel)
    receiving = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(0)  # the receiver now waits on this loop
    loop = asyncio.get_running_loop()
    received, guard_woke = threading.Event(), threading.Event()

    def worker() -> None:
        async_to_sync(layer.group_send)("match-42", {"type": "match.changed", "version": 17})

    def guard() -> None:
        if not received.wait(GUARD):
            guard_woke.set()
            loop.call_soon_threadsafe(lambda: None)

    threading.Thread(target=guard, daemon=True).start()
    threading.Thread(target=worker).start()
    message = await receiving
    received.set()
    assert message == {"type": "match.changed", "version": 17}
    assert not guard_woke.is_set()


@pytest.mark.asyncio
async def test_calls_on_the_serving_loop_stay_direct() -> None:
    layer = ThreadSafeInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "hello"})
    assert await layer.receive(channel) == {"type": "hello"}
    await layer.group_add("g", channel)
    await layer.group_discard("g", channel)
    assert layer.groups == {}
