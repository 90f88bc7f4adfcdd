"""``/ws/chat/<match_id>/``: the table chat of one reader of a match page.

The socket joins its reader's room (players or spectators, ``selectors.seating``), sends the
room's latest lines as this reader sees them, then one line per ``chat.line`` event (the event
carries the line's id only: the line is read and rendered here, for this reader).

Frames from the browser (htmx ws-send forms, JSON): ``{"phrase": "gl"}``, ``{"text": "..."}`` or
``{"report": "12"}``; other keys (``HEADERS``) are ignored. Anything else, and every refusal, is
answered with a notice to this socket alone and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from accounts.models import User
from durak_site.errors import Refused
from people.selectors import blocked_between
from play import ratelimit
from play.consumers import CLOSE_NOT_FOUND, ViewerDispatch, pooled

from . import presenters, selectors, services
from .presenters import Reader
from .selectors import Seating

TEMPLATE = "games/_chat.html"


class ChatConsumer(ViewerDispatch, AsyncWebsocketConsumer):
    match_id: int
    seat: Seating
    reader: Reader

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        found = await pooled(_seating)(self.match_id, self.user)
        if found is None:  # no such match, or not one this reader may watch: the same answer
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.seat, self.reader = found
        # In the room's group before its lines are read: a line said in between is then sent to
        # this socket as well (read first, it was sent to nobody and missing until a reconnect).
        await self.channel_layer.group_add(
            services.room_group(self.match_id, self.seat.room), self.channel_name
        )
        html = await pooled(_panel)(self.match_id, self.seat, self.reader)
        await self.accept()
        await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "seat"):
            await self.channel_layer.group_discard(
                services.room_group(self.match_id, self.seat.room), self.channel_name
            )

    @property
    def user(self) -> User | AnonymousUser:
        user: User | AnonymousUser = self.scope.get("user") or AnonymousUser()
        return user

    async def chat_line(self, event: dict[str, Any]) -> None:
        html = await pooled(_render_line)(int(event.get("line", 0)), self.reader)
        if html:
            await self.send(text_data=html)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if await ratelimit.refuse(self):
            return
        frame = parse_frame(text_data)
        user = self.user
        if frame is None:
            if not await ratelimit.refuse_user(self):
                await self.send_error(_("That message was not understood."), code="malformed")
            return
        if not isinstance(user, User):
            await self.send_error(_("Log in to chat."), code="anonymous")
            return
        kind, value = frame
        try:
            if kind == "report":
                await database_sync_to_async(services.chat_report)(line_id=int(value), user=user)
                await self.send_error(_("Reported. Thank you: the staff will look at it."), code="reported")
                return
            await database_sync_to_async(services.chat_say)(
                match_id=self.match_id, user=user, **{kind: value}
            )
        except Refused as refusal:
            await self.send_error(refusal.message, code="refused")
            return
        await self.send_error("", code="said")  # clears an earlier notice

    async def send_error(self, message: str, *, code: str) -> None:
        await self.send(
            text_data=render_to_string(f"{TEMPLATE}#notice", {"notice": message, "code": code, "oob": True})
        )


def parse_frame(text_data: str | None) -> tuple[str, str] | None:
    """``("phrase" | "text" | "report", value)`` of a well-formed frame, else ``None``."""
    if not text_data or len(text_data) > 4000:
        return None
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    found = [(key, data[key]) for key in ("phrase", "text", "report") if key in data]
    if len(found) != 1 or not isinstance(found[0][1], str):
        return None
    kind, value = found[0]
    if kind == "report" and not (value.isascii() and value.isdigit() and len(value) < 12):
        return None
    if kind == "phrase" and len(value) > 16:
        return None
    return kind, value


def _seating(match_id: int, user: User | AnonymousUser) -> tuple[Seating, Reader] | None:
    seat = selectors.seating(match_id, user)
    if seat is None:
        return None
    return seat, presenters.reader_for(user, seat)


def _panel(match_id: int, seat: Seating, reader: Reader) -> str:
    lines = presenters.present_lines(selectors.room_lines(match_id, seat.room), reader)
    context = {
        "seat": seat,
        "reader": reader,
        "lines": lines,
        "quick": presenters.quick_buttons(),
        "oob": True,
    }
    return render_to_string(f"{TEMPLATE}#panel", context)


def _render_line(line_id: int, reader: Reader) -> str:
    line = selectors.line_get(line_id)
    if line is None or (
        # a block made since this socket opened counts at once (``reader.hidden`` is from then)
        line.author_id != reader.user_id
        and reader.user_id is not None
        and blocked_between(line.author_id, reader.user_id)
    ):
        return ""
    shown = presenters.present_line(line, reader)
    if shown is None:
        return ""
    return render_to_string(f"{TEMPLATE}#append", {"line": shown, "reader": reader})
