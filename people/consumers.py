"""``/ws/me/``: a signed-in user's personal socket, open on every page of the site.

It marks the user present while any of their pages is open, and carries what is meant for that
user wherever they are (a challenge, a pairing that started a match): apps above send
``{"type": "personal.event", "payload": {...}}`` to ``people.consumers.personal_group(user_id)``
and the page's ``static/js/me.js`` re-dispatches the payload as a ``durak:me`` DOM event.

The page beats every 25 s, and each beat is a database write, so a socket's beats are limited
(``settings.WEBSOCKET_HEARTBEAT_RATE``, a token bucket per socket that costs nothing): one over the
limit is dropped without a word (the page expects no answer) and counted.
"""

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from durak_site import metrics
from durak_site.buckets import TokenBucket

from . import services

CLOSE_ANONYMOUS = 4401


def personal_group(user_id: int) -> str:
    return f"user.{user_id}"


class PersonalConsumer(AsyncWebsocketConsumer):
    user_id: int | None = None
    beats: TokenBucket

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_ANONYMOUS)
            return
        self.user_id = int(user.pk)
        rate, burst = settings.WEBSOCKET_HEARTBEAT_RATE
        self.beats = TokenBucket(rate=rate, burst=int(burst))
        await self.channel_layer.group_add(personal_group(self.user_id), self.channel_name)
        await self.accept()
        await database_sync_to_async(services.presence_open)(self.user_id, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.user_id is None:
            return
        await self.channel_layer.group_discard(personal_group(self.user_id), self.channel_name)
        await database_sync_to_async(services.presence_close)(self.user_id, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The only frame a client sends is its heartbeat; anything else is ignored."""
        if self.user_id is None or text_data is None or len(text_data) >= 100:
            return
        if not self.beats.take():
            metrics.RATE_LIMITED.labels("heartbeat").inc()
            return
        await database_sync_to_async(services.presence_beat)(self.channel_name)

    async def personal_event(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(event["payload"]))
