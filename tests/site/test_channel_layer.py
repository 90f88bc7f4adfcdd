"""The embedded channel layer delivers promptly when called from another thread (NOTES.md)."""

import asyncio
import threading
import time

import pytest
from asgiref.sync import async_to_sync

from durak_site.channel_layers import ThreadSafeInMemoryChannelLayer


@pytest.mark.asyncio
async def test_group_send_from_a_worker_thread_wakes_the_receiver_at_once() -> None:
    layer = ThreadSafeInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("match-42", channel)
    receiving = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(0)  # the receiver now waits on this loop

    def worker() -> None:
        async_to_sync(layer.group_send)("match-42", {"type": "match.changed", "version": 17})

    sent_at = time.monotonic()
    threading.Thread(target=worker).start()
    message = await asyncio.wait_for(receiving, timeout=2)
    assert message == {"type": "match.changed", "version": 17}
    assert time.monotonic() - sent_at < 0.3


@pytest.mark.asyncio
async def test_calls_on_the_serving_loop_stay_direct() -> None:
    layer = ThreadSafeInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "hello"})
    assert await layer.receive(channel) == {"type": "hello"}
    await layer.group_add("g", channel)
    await layer.group_discard("g", channel)
    assert layer.groups == {}
