"""``/ws/pairing/``: the quick-pairing grid of a home or lobby page, re-sent (with its live counts
and the viewer's own waiting seek) whenever the pool or the matches in play change. Each socket
renders its own viewer's grid from the database; the event carries nothing."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from pairing.presenters import present_grid
from pairing.push import GRID_GROUP
from play.consumers import ViewerDispatch, pooled


def _render(user: Any) -> str:
    return render_to_string("pairing/_grid.html", present_grid(user) | {"oob": True})


class GridConsumer(ViewerDispatch, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.channel_layer.group_add(GRID_GROUP, self.channel_name)
        await self.accept()
        await self.grid_changed({})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(GRID_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The grid socket only listens: whatever a client sends is ignored."""

    async def grid_changed(self, event: dict[str, Any]) -> None:
        user = self.scope.get("user") or AnonymousUser()
        await self.send(text_data=await pooled(_render)(user))
