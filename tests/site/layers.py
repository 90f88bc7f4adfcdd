"""Helpers for tests that drive a Redis channel layer directly.

Two habits of channels_redis's pub/sub layer shape them:

* ``group_add`` sends ``SUBSCRIBE`` without waiting for Redis to confirm it, and a ``PUBLISH``
  from another connection may overtake it: a test that sends right after joining could lose its
  message. ``join`` returns once a probe has come through.
* A cancelled ``receive`` drops the channel (the layer takes cancellation for its consumer
  ending), so ``asyncio.wait_for`` around a receive that times out ends that channel.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

#: The type of ``join``'s probes, which ``next_message`` skips.
READY = "probe.ready"


async def join(layer: Any, group: str, channel: str, timeout: float = 5) -> None:
    """Add ``channel`` to ``group`` and return once a message sent to the group has arrived (more
    probes may follow it). No receive is pending on ``channel`` afterwards."""
    await layer.group_add(group, channel)
    receiving = asyncio.create_task(layer.receive(channel))
    deadline = time.monotonic() + timeout
    while not receiving.done():
        if time.monotonic() > deadline:
            receiving.cancel()
            raise AssertionError(f"{group}: no probe came through in {timeout} s")
        await layer.group_send(group, {"type": READY})
        await asyncio.wait({receiving}, timeout=0.05)
    assert receiving.result() == {"type": READY}


async def until_receiving(layer: Any, channel: str) -> None:
    """Return once a ``receive`` waits on ``channel`` of ``layer`` (a ``ResyncingPubSubChannelLayer``
    of this loop): the task that receives needs a few turns of the loop to get there, and no clock
    says how many."""
    queue = layer._get_layer().channels[channel]
    for _ in range(1000):
        if queue._getters:  # asyncio.Queue's waiting gets
            return
        await asyncio.sleep(0)
    raise AssertionError(f"nothing came to receive on {channel}")


async def next_message(layer: Any, channel: str, timeout: float = 5) -> dict[str, Any] | None:
    """The next message on ``channel`` other than a probe, or ``None`` if none came within
    ``timeout`` (which ends the channel)."""

    async def first() -> dict[str, Any]:
        while True:
            message: dict[str, Any] = await layer.receive(channel)
            if message.get("type") != READY:
                return message

    try:
        return await asyncio.wait_for(first(), timeout)
    except TimeoutError:
        return None
