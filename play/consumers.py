"""Websockets of live play: one per match page viewer, one per lobby, one per table page.

Nothing private crosses the channel layer: the services broadcast thin "changed" events (ids and
a version) and every socket renders its own viewer's fragments from the database through the
presenter, then sends them as htmx out-of-band swaps; the socket that made the move draws its
page from the match as the move committed it (the ``LoadedMatch`` it returns) instead. A
(re)connecting socket first gets the full current view, so a lost event is healed by the next
one or by a reconnect.

Frames from the browser (the htmx ws extension sends form values as JSON):
``{"action": "cover 7S>6S", "version": 12}``; extra keys (``HEADERS``, the CSRF field) are
ignored. A malformed, illegal, stale or unauthorised action is answered with an error fragment
to the sender alone (for a stale one, with the current view as well) and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.cookie import parse_cookie
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts.models import User
from durak_site import logcontext, metrics
from games.models import Table
from play import broadcast, ratelimit, selectors, services
from play.access import may_see_table, may_watch
from play.fragments import match_fragments, render_error
from play.presenters import present_lobby, present_table

logger = logging.getLogger(__name__)

#: Seconds between two refreshes of a host's presence (``services.limits``; well under
#: ``settings.GAMES_HOST_AWAY_SECONDS``).
PRESENCE_SECONDS = 30.0

#: Close codes (4000-4999 are the application's): no such match/table, not allowed to watch.
CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403


class ViewerDispatch:
    """How every socket of live play runs its handlers: in its viewer's language, directly.

    * Language: a socket has no request for ``LocaleMiddleware``, so the handlers run under the
      language the page was rendered in (the language cookie, else ``Accept-Language``, as the
      middleware decides). ``translation.override`` is context-local, and
      ``database_sync_to_async`` carries the context into its thread, so the rendered fragments
      and the services' error messages come out in that language too.
    * No ``aclose_old_connections()`` before every handler: it is a hop to a thread and back for
      every event every socket receives, the largest avoidable cost of a broadcast. These
      consumers touch the database only through ``database_sync_to_async``, which closes stale
      connections itself. This mirrors
      ``channels.consumer.AsyncConsumer.dispatch`` (channels 4.3) minus that call;
      ``tests/games/test_consumers.py`` checks the internal it relies on.
    """

    scope: dict[str, Any]

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if "games_language" not in self.scope:
            self.scope["games_language"] = scope_language(self.scope)
        with translation.override(self.scope["games_language"]):
            await handler(message)


def scope_language(scope: dict[str, Any]) -> str:
    """The language ``LocaleMiddleware`` would pick for the page that opened this socket."""
    headers = dict(scope.get("headers", ()))
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    candidates = [cookies.get(settings.LANGUAGE_COOKIE_NAME, "")]
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _quality in parse_accept_lang_header(accept) if code != "*"]
    for code in candidates:
        if not code:
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


def pooled(func: Any) -> Any:
    """``database_sync_to_async`` on the event loop's thread pool rather than the one shared
    thread: a move waits on PostgreSQL for its commit, and while it does, other sockets' renders
    and moves run in other threads (each thread keeps its own connection) instead of queueing
    behind it. The reads of a handshake (may this viewer watch, the first render) run here too,
    so a flood of handshakes never queues in front of every other socket's work on that one
    thread (issue #35). Every such call is a complete unit (a render, or one service call with
    its own transaction), so no thread affinity is needed."""
    return database_sync_to_async(func, thread_sensitive=False)


class HostPresence:
    """A socket that keeps its user's open tables marked "host here" while it is open.

    Why in the socket: the page being open is what presence means, and the mark lives in the
    table's row (``Table.host_seen_at``), never in this process's memory, so the lobby of every
    process reads the same thing and a process that dies simply stops refreshing it."""

    scope: dict[str, Any]
    _presence: asyncio.Task[None] | None = None

    def presence_start(self, table_id: int | None) -> None:
        user = self.scope.get("user")
        if not isinstance(user, User) or not user.is_authenticated:
            return

        async def refresh() -> None:
            while True:
                try:
                    await database_sync_to_async(services.host_seen)(user=user, table_id=table_id)
                except Exception:  # the database went away: the next beat tries again
                    logger.warning("host presence of user %s not refreshed", user.pk, exc_info=True)
                await asyncio.sleep(PRESENCE_SECONDS)

        self._presence = asyncio.ensure_future(refresh())

    async def presence_stop(self) -> None:
        task, self._presence = self._presence, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class MatchConsumer(ViewerDispatch, AsyncWebsocketConsumer):
    """``/ws/match/<id>/``: the match page of one viewer (player, spectator or anonymous)."""

    match_id: int
    group: str
    version: int
    last_seq: int

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.version = -1
        self.last_seq = 0
        allowed = await pooled(_may_watch_match)(self.match_id, self.user)
        if allowed is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not allowed:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = broadcast.match_group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.push(full=True)
        # Heal the others: a socket that reconnects after its daphne died may have taken the
        # broadcast of the move it had just committed with it; peers still behind catch up now.
        await self.channel_layer.group_send(self.group, broadcast.changed_event(self.match_id, self.version))

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    @property
    def user(self) -> User | AnonymousUser:
        user: User | AnonymousUser = self.scope.get("user") or AnonymousUser()
        return user

    async def match_changed(self, event: dict[str, Any]) -> None:
        """The thin broadcast of ``play.broadcast``: re-render this viewer's fragments."""
        if int(event.get("version", 0)) <= self.version:
            return
        await self.push(full=False)
        if "at" in event:  # a change's own broadcast (not a resync): commit → this push
            metrics.MOVE_PUSH_SECONDS.observe(max(0.0, time.time() - float(event["at"])))

    async def push(self, *, full: bool, error: str = "") -> None:
        """Send this viewer's fragments: all of them, or the changes since the last push."""
        rendered = await pooled(_render_match)(
            self.match_id, self.user, error, None if full else self.last_seq
        )
        if rendered is None:
            return
        html, version, last_seq = rendered
        self.version, self.last_seq = version, last_seq
        await self.send(text_data=html)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        received = time.perf_counter()
        logcontext.new_request()  # this frame's lines share an id (and the match, once locked)
        if await ratelimit.refuse(self):  # a flood on this socket is answered at once
            return
        frame = _parse_frame(text_data)
        if frame is None:
            if not await ratelimit.refuse_user(self):
                metrics.REFUSED_FRAMES.labels("malformed").inc()
                await self.send_error(_("That message was not understood."), code="malformed")
            return
        action, version = frame
        user = self.user
        if not isinstance(user, User):
            await self.send_error(_("Log in to play."), code="anonymous")
            return
        try:
            html, self.version, self.last_seq = await pooled(_apply_and_render)(
                self.match_id, user, action, version, self.last_seq, received
            )
        except ratelimit.OverLimit:
            await self.send_error(ratelimit.message(), code=ratelimit.ERROR_CODE)
        except services.StaleVersion as error:
            metrics.REFUSED_FRAMES.labels("stale").inc()
            await self.push(full=True, error=error.message)
        except services.GameError as error:
            code = getattr(error, "code", "refused")
            metrics.REFUSED_FRAMES.labels(code).inc()
            await self.send_error(error.message, code=code)
        else:
            # The mover's page straight from the applied match; the broadcast of this version,
            # queued behind this handler, then finds this socket already there.
            await self.send(text_data=html)

    async def send_error(self, message: str, *, code: str) -> None:
        """An error fragment for this socket alone."""
        await self.send(text_data=render_error(message, code=code))


class LobbyConsumer(HostPresence, ViewerDispatch, AsyncWebsocketConsumer):
    """``/ws/lobby/``: the list of open tables, re-sent whenever a table changes; a host on the
    lobby is present at all their open tables."""

    async def connect(self) -> None:
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.lobby_changed({})
        self.presence_start(None)

    async def disconnect(self, code: int) -> None:
        await self.presence_stop()
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        user = self.scope.get("user") or AnonymousUser()
        await self.send(text_data=await pooled(_render_lobby)(user))


class TableConsumer(HostPresence, ViewerDispatch, AsyncWebsocketConsumer):
    """``/ws/table/<id>/``: the seats of a table page; sends the way to a match once dealt; the
    creator's socket keeps the table's host present."""

    table_id: int

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        token = parse_qs(self.scope.get("query_string", b"").decode()).get("invite", [""])[0]
        user = self.scope.get("user") or AnonymousUser()
        allowed = await pooled(_may_watch_table)(self.table_id, user, token)
        if not allowed:
            await self.close(code=CLOSE_FORBIDDEN if allowed is False else CLOSE_NOT_FOUND)
            return
        await self.channel_layer.group_add(broadcast.table_group(self.table_id), self.channel_name)
        await self.accept()
        # The seats as they are now: a table that filled (and dealt) before this socket joined its
        # group would otherwise never send the way to the match.
        await self.table_changed({})
        self.presence_start(self.table_id)

    async def disconnect(self, code: int) -> None:
        await self.presence_stop()
        if hasattr(self, "table_id"):
            group = broadcast.table_group(self.table_id)
            await self.channel_layer.group_discard(group, self.channel_name)

    async def table_changed(self, event: dict[str, Any]) -> None:
        user = self.scope.get("user") or AnonymousUser()
        html = await pooled(_render_table)(self.table_id, user)
        if html:
            await self.send(text_data=html)


# --- sync helpers (run in a worker thread) ----------------------------------------------------


def _parse_frame(text_data: str | None) -> tuple[str, int] | None:
    """``(action, version)`` of a well-formed frame, else ``None``."""
    if not text_data:
        return None
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):  # not JSON, or nested deep enough to blow the stack
        return None
    if not isinstance(data, dict):
        return None
    action, version = data.get("action"), data.get("version")
    if not isinstance(action, str) or not action.strip() or len(action) > 200:
        return None
    if isinstance(version, str) and version.isascii() and version.isdigit():
        version = int(version)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        return None
    return action.strip(), version


def _may_watch_match(match_id: int, user: User | AnonymousUser) -> bool | None:
    """``None`` when there is no such match, else whether ``user`` may watch it."""
    loaded = selectors.match_load(match_id=match_id, moves_after=None)
    if loaded is None:
        return None
    return may_watch(loaded.match, loaded.players, user)


def _may_watch_table(table_id: int, user: User | AnonymousUser, token: str) -> bool | None:
    """``None`` when there is no such table, else whether ``user`` may see it (``access``)."""
    try:
        table = selectors.table_get(table_id=table_id)
    except Table.DoesNotExist:
        return None
    return may_see_table(table, user, token)


def _render_match(
    match_id: int, user: User | AnonymousUser, error: str, log_after: int | None
) -> tuple[str, int, int] | None:
    loaded = selectors.match_load(match_id=match_id, moves_after=log_after or 0)
    if loaded is None:
        return None
    return match_fragments(loaded, user, error=error, log_after=log_after)


def _apply_and_render(
    match_id: int, user: User, action: str, version: int, log_after: int, received: float
) -> tuple[str, int, int]:
    """Count the frame against its user's limit, play ``action`` and render the mover's fragments
    from the match as the move committed it: one thread hop, no read back. ``received``: when the
    frame arrived (``time.perf_counter``), from which the move's time to its commit is measured."""
    ratelimit.check_user(user.pk)
    applied = services.action_apply(
        match_id=match_id, user=user, action_text=action, expected_version=version
    )
    metrics.MOVE_COMMIT_SECONDS.observe(time.perf_counter() - received)
    return match_fragments(applied, user, log_after=log_after)


def _render_lobby(user: User | AnonymousUser) -> str:
    context = {"tables": present_lobby(selectors.open_tables()), "user": user, "oob": True}
    return render_to_string("games/lobby.html#tables", context)


def _render_table(table_id: int, user: User | AnonymousUser) -> str:
    try:
        table = selectors.table_get(table_id=table_id)
    except Table.DoesNotExist:
        return ""
    context = present_table(table, user, token="", invite_url="")
    return render_to_string("games/table.html#seats", {**context, "user": user, "oob": True})
