"""Open websockets by kind, counted around the whole websocket stack (``durak_site.asgi``): a
socket counts from its ``accept`` until its connection ends, whichever consumer served it."""

from __future__ import annotations

from typing import Any

from durak_site import metrics

#: The first part of a socket path (``/ws/<kind>/...``) that is counted as itself; any other is
#: counted as ``other``, so no client can make up new series.
KINDS = frozenset({"match", "lobby", "table", "chat", "me", "pairing", "tournament", "echo"})

Scope = dict[str, Any]
Receive = Any
Send = Any


def kind_of(path: str) -> str:
    """``/ws/match/7/`` → ``match``.

    >>> kind_of("/ws/match/7/"), kind_of("/ws/nonsense/"), kind_of("/")
    ('match', 'other', 'other')
    """
    parts = path.strip("/").split("/")
    kind = parts[1] if len(parts) > 1 and parts[0] == "ws" else ""
    return kind if kind in KINDS else "other"


class SocketCounter:
    """ASGI middleware: ``durak_sockets_open{kind}`` up at ``websocket.accept``, down when the
    application returns (closed by either side, or failed)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        gauge = metrics.SOCKETS_OPEN.labels(kind_of(scope.get("path", "")))
        accepted = False

        async def counting_send(message: dict[str, Any]) -> None:
            nonlocal accepted
            if message.get("type") == "websocket.accept" and not accepted:
                accepted = True
                gauge.inc()
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            if accepted:
                gauge.dec()
