"""Site-wide websocket consumers."""

import logging
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

logger = logging.getLogger(__name__)

#: The close code of a socket opened on a path no route serves.
CLOSE_NO_ROUTE = 4404


class EchoConsumer(AsyncWebsocketConsumer):
    """Sends every text frame straight back.

    A health probe for the websocket path (the daphne smoke test) and the latency floor of the load
    test: no database, no groups, nothing but the round trip.
    """

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None:
            await self.send(text_data=text_data)
        elif bytes_data is not None:
            await self.send(bytes_data=bytes_data)


async def unknown_path(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The last route: a socket on a path nothing serves is closed before it is accepted.

    Without it channels' router raised "No route found", which daphne logged as an ERROR with a
    traceback and answered with a 500: anyone could fill the error log. A plain ASGI callable, not
    a consumer, so it joins no channel layer and costs nothing but the close."""
    message = await receive()
    if message.get("type") == "websocket.connect":
        logger.info("websocket refused: no route for %s", scope.get("path", "")[:200])
        await send({"type": "websocket.close", "code": CLOSE_NO_ROUTE})
