"""The websocket origin check: a socket opens only from a page of this site.

Browsers send ``Origin`` with every websocket handshake but apply no same-origin policy to
websockets, so this check is what keeps a page elsewhere from opening a socket with our cookies.
channels' ``AllowedHostsOriginValidator`` compared only the origin's host name with
``ALLOWED_HOSTS``, so ``http://`` for an ``https://`` site, another port of the same host, and
``Origin`` naming an allowed host while the socket was opened on another all passed.

This applies the rule Django's CSRF check applies to an unsafe HTTPS request
(``CsrfViewMiddleware._origin_verified``), to the whole origin (scheme, host and port):

* the origin is the request's own: ``https://`` when the socket is secure (``wss``, or the proxy
  says so through ``SECURE_PROXY_SSL_HEADER``, as Django decides ``request.is_secure()``), else
  ``http://``, followed by the ``Host`` header, which must be in ``ALLOWED_HOSTS``; or
* it is listed in ``CSRF_TRUSTED_ORIGINS`` (exactly, or under a ``https://*.example.org`` entry).

A handshake without ``Origin`` (no browser sends one) or with ``Origin: null`` is refused.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

Scope = dict[str, Any]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _is_secure(scope: Scope) -> bool:
    """Django's ``request.is_secure()`` for a socket: the proxy's header when one is configured
    and present, else the scheme the server saw."""
    proxy_header = settings.SECURE_PROXY_SSL_HEADER
    if proxy_header:
        meta_name, secure_value = proxy_header
        wanted = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        value = _header(scope, wanted)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") in ("wss", "https")


def _allowed_hosts() -> list[str]:
    """``ALLOWED_HOSTS`` as ``HttpRequest.get_host`` uses it (local names when empty in DEBUG)."""
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    return hosts


def own_origin(scope: Scope) -> str | None:
    """``scheme://host[:port]`` of the socket's own request, or ``None`` if its host is not allowed."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    return f"{'https' if _is_secure(scope) else 'http'}://{host}"


def origin_allowed(origin: str | None, scope: Scope) -> bool:
    """Whether a handshake with ``Origin: origin`` may open a socket (the rule above)."""
    if not origin or origin == "null":
        return False
    if origin == own_origin(scope):
        return True
    trusted = list(settings.CSRF_TRUSTED_ORIGINS)
    if origin in (entry for entry in trusted if "*" not in entry):
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    for entry in trusted:
        if "*" not in entry:
            continue
        pattern = urlsplit(entry)
        if parsed.scheme == pattern.scheme and is_same_domain(parsed.netloc, pattern.netloc.lstrip("*")):
            return True
    return False


class OriginValidator:
    """ASGI middleware for websockets: refuses the handshake unless ``origin_allowed``."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("OriginValidator guards websockets only")
        if origin_allowed(_header(scope, b"origin"), scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
