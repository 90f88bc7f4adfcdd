"""The session and the user of a websocket (``scope["session"]``, ``scope["user"]``), looked up off
the one shared thread.

Why not channels' ``AuthMiddlewareStack``: it looks the user up with ``database_sync_to_async``,
which runs every call of the process on one shared thread, for every handshake, even one without
a session cookie. A flood of anonymous handshakes then queued in front of every other socket's
database work, and honest players' handshakes took seconds (issue #35). Here:

* a handshake without a session cookie is anonymous at once: no thread, no query;
* with one, Django's own ``django.contrib.auth.get_user`` (the session row, the user row, the
  session hash check) runs in the event loop's pool of threads (``thread_sensitive=False``): a
  complete unit that needs no other call's thread, as the match sockets' renders already do
  (``play.consumers.pooled``).

Websockets never write the session (channels saved it only for HTTP responses), so the scope
gets the session store as it was read. ``scope["cookies"]`` is set as channels'
``CookieMiddleware`` set it.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest
from django.http.cookie import parse_cookie

Scope = dict[str, Any]


def cookies_of(scope: Scope) -> dict[str, str]:
    """The cookies of the handshake (every ``Cookie`` header line)."""
    lines = [value.decode("latin-1") for name, value in scope.get("headers", ()) if name.lower() == b"cookie"]
    return parse_cookie("; ".join(lines))


def user_of(session: SessionBase) -> Any:
    """The signed-in user of ``session``, else ``AnonymousUser`` (Django's own rules)."""
    request = HttpRequest()
    request.session = session
    return get_user(request)


class SessionAuthMiddleware:
    """ASGI middleware for websockets: ``scope["cookies"]``, ``["session"]`` and ``["user"]``."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.session_store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        cookies = cookies_of(scope)
        session_key = cookies.get(settings.SESSION_COOKIE_NAME)
        session = self.session_store(session_key)
        if "user" in scope:  # set by an outer layer (channels' rule): kept as it is
            user = scope["user"]
        elif session_key:
            user = await database_sync_to_async(user_of, thread_sensitive=False)(session)
        else:
            user = AnonymousUser()
        return await self.app({**scope, "cookies": cookies, "session": session, "user": user}, receive, send)
