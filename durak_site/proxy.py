"""The client's address behind the proxies we run: ``X-Forwarded-For`` read from the right.

Every proxy that follows nginx's ``$proxy_add_x_forwarded_for`` appends the address of the peer
it got the request from to the header, so the entries a client cannot forge are the last
``settings.TRUSTED_PROXIES`` ones (``DJANGO_TRUSTED_PROXIES``): the last is what the proxy next to
daphne saw, the one before what the proxy in front of that saw, and so on. The client is the entry
the outermost trusted proxy wrote, ``entries[-N]``. Anything left of it was written by the client
(or proxies of its own) and is ignored.

With 0 trusted proxies (the default) the header is ignored and the client is the socket's peer.
daphne's own ``--proxy-headers`` must stay off: it takes the *first* entry, which the client writes.

The rewrite happens once, in the ASGI scope of every HTTP request and websocket, so Django's
``REMOTE_ADDR`` (which allauth's rate limits count by, ``ALLAUTH_TRUSTED_PROXY_COUNT = 0``) and a
consumer's ``scope["client"]`` agree.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from django.conf import settings

Scope = dict[str, Any]


def forwarded_entries(headers: Iterable[tuple[bytes, bytes]]) -> list[str]:
    """The ``X-Forwarded-For`` entries in order; several header lines count as one list."""
    entries: list[str] = []
    for name, value in headers:
        if name.lower() == b"x-forwarded-for":
            entries += [part.strip() for part in value.decode("latin-1").split(",")]
    return entries


def _address(entry: str) -> str | None:
    """``entry`` as a normalised IP address (brackets of IPv6 dropped), or ``None`` if it is none."""
    candidate = entry.strip()
    if candidate.startswith("[") and candidate.endswith("]"):
        candidate = candidate[1:-1]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None


def client_address(headers: Iterable[tuple[bytes, bytes]], trusted: int) -> str | None:
    """The client's address per ``trusted`` proxies, or ``None`` to keep the socket's peer.

    >>> client_address([(b"x-forwarded-for", b"6.6.6.6, 203.0.113.7")], 1)
    '203.0.113.7'
    >>> client_address([(b"x-forwarded-for", b"6.6.6.6, 203.0.113.7, 10.0.0.2")], 2)
    '203.0.113.7'
    >>> client_address([(b"x-forwarded-for", b"6.6.6.6")], 0) is None
    True

    Fewer entries than trusted proxies means the request skipped the outer ones: every entry then
    came from a proxy of ours, and the leftmost is the address the first of them saw.
    """
    if trusted <= 0:
        return None
    entries = forwarded_entries(headers)
    if not entries:
        return None
    return _address(entries[-min(trusted, len(entries))])


class TrustedProxyMiddleware:
    """ASGI middleware: sets ``scope["client"]`` from ``X-Forwarded-For`` per ``TRUSTED_PROXIES``."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        if scope["type"] in ("http", "websocket"):
            address = client_address(scope.get("headers", ()), int(getattr(settings, "TRUSTED_PROXIES", 0)))
            if address is not None:
                scope = {**scope, "client": [address, 0]}
        return await self.application(scope, receive, send)
