"""Limits on websockets per client address and per account, before any database work.

Why here, in ASGI middleware: a handshake flood costs the site what the handshake does (the
session and user lookup, then the consumer's own queries), so the limits must answer before any
of it. ``AddressLimits`` stands first in the websocket stack (``durak_site.asgi``), right after
``durak_site.proxy.TrustedProxyMiddleware`` has resolved the client's address: it counts the
address's handshakes (a token bucket: ``settings.WEBSOCKET_HANDSHAKE_RATE``) and its open sockets
(``settings.WEBSOCKET_OPEN_PER_ADDRESS``). ``AccountLimits`` stands right after the session
lookup (``durak_site.socket_auth``), the first place an account is known, and before the route
table, so before any consumer's queries: the same rate per account, and its own cap of open
sockets (``settings.WEBSOCKET_OPEN_PER_ACCOUNT``). Both count in Redis when ``REDIS_URL`` is set,
so the limits hold over every daphne (``durak_site.socket_counts``).

A refused handshake is closed before it is accepted (``CLOSE_LIMITED``; the server answers the
HTTP upgrade with 403) and logged at WARNING once per address or account and reason every
``LOG_EVERY_SECONDS`` (a flood must not flood the log too). An admitted socket's place is given
back when the site closes it or its application returns, however the connection ended.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from django.conf import settings

from . import metrics
from .socket_counts import Refusal, counts

logger = logging.getLogger(__name__)

#: The close code of a refused handshake (4000-4999 are the application's; 429 as in HTTP).
CLOSE_LIMITED = 4429
#: Seconds between two log lines about the same refused address or account.
LOG_EVERY_SECONDS = 10.0

Scope = dict[str, Any]

_last_logged: dict[tuple[str, Refusal], float] = {}


async def refuse(scope: Scope, receive: Any, send: Any, *, who: str, refusal: Refusal) -> None:
    """Close the handshake before it is accepted, count it, and say so (at most every few seconds)."""
    metrics.RATE_LIMITED.labels(f"websocket_{refusal.name.lower()}").inc()
    now = time.monotonic()
    if now - _last_logged.get((who, refusal), -LOG_EVERY_SECONDS) >= LOG_EVERY_SECONDS:
        if len(_last_logged) > 10_000:
            _last_logged.clear()
        _last_logged[(who, refusal)] = now
        logger.warning(
            "websocket refused: %s over its limit of %s (%s)", who, refusal.value, scope.get("path")
        )
    message = await receive()
    if message.get("type") == "websocket.connect":
        await send({"type": "websocket.close", "code": CLOSE_LIMITED})


async def limited(
    app: Any, scope: Scope, receive: Any, send: Any, *, key: str, who: str, open_limit: int
) -> None:
    """Run ``app`` for this socket if ``key`` is under its limits, holding its place until it ends."""
    rate, burst = settings.WEBSOCKET_HANDSHAKE_RATE
    socket_id = uuid.uuid4().hex
    store = counts()
    refusal = await store.admit(key, socket_id, open_limit=open_limit, rate=rate, burst=int(burst))
    if refusal is not None:
        await refuse(scope, receive, send, who=who, refusal=refusal)
        return
    released = False

    async def release() -> None:
        nonlocal released
        if not released:
            released = True
            await store.release(key, socket_id)

    async def sending(message: dict[str, Any]) -> None:
        await send(message)
        if message.get("type") == "websocket.close":  # closed by the site: the place is free now
            await release()

    try:
        await app(scope, receive, sending)
    finally:
        await release()


def client_address(scope: Scope) -> str | None:
    """The address the limits count by: the peer as ``TrustedProxyMiddleware`` resolved it."""
    client = scope.get("client")
    return str(client[0]) if client and client[0] else None


class AddressLimits:
    """ASGI middleware for websockets: handshakes and open sockets per client address.

    A socket without an address (daphne on a Unix socket with no trusted proxy to name the client)
    is not counted here: one count shared by every client would let one of them lock out all."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        address = client_address(scope)
        if address is None:
            await self.app(scope, receive, send)
            return
        await limited(
            self.app,
            scope,
            receive,
            send,
            key=f"address:{address}",
            who=f"address {address}",
            open_limit=int(settings.WEBSOCKET_OPEN_PER_ADDRESS),
        )


class AccountLimits:
    """ASGI middleware for websockets, after the session lookup: handshakes and open sockets per
    signed-in account (anonymous sockets have the address's limits only)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            await self.app(scope, receive, send)
            return
        await limited(
            self.app,
            scope,
            receive,
            send,
            key=f"account:{user.pk}",
            who=f"account {user.pk}",
            open_limit=int(settings.WEBSOCKET_OPEN_PER_ACCOUNT),
        )
