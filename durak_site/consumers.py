"""Site-wide websocket consumers."""

from channels.generic.websocket import AsyncWebsocketConsumer


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
