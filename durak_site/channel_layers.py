"""An in-memory channel layer that may be called from any thread.

Channels' ``InMemoryChannelLayer`` keeps ``asyncio.Queue`` objects that belong to the serving event
loop. A ``group_send`` from another thread (the embedded Celery worker, via ``async_to_sync``) puts
into those queues from a foreign loop: the waiting consumer is not woken until daphne's next timer
tick (0.5-1 s late), and under pytest never (NOTES.md). This subclass remembers the loop its
consumers receive on and hands every call made from another loop over to it.
"""

import asyncio
from collections.abc import Coroutine
from typing import Any

from channels.layers import InMemoryChannelLayer


class ThreadSafeInMemoryChannelLayer(InMemoryChannelLayer):
    """``InMemoryChannelLayer`` whose mutating calls always run on the consumers' event loop."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._home_loop: asyncio.AbstractEventLoop | None = None

    async def _on_home_loop[T](self, call: Coroutine[Any, Any, T]) -> T:
        """Await ``call`` on the home loop; run it here when there is none (or it is this one)."""
        home = self._home_loop
        if (
            home is None
            or home is asyncio.get_running_loop()
            or home.is_closed()
            or not home.is_running()
        ):
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
