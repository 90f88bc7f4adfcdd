"""The websocket origin check (``durak_site.origins``) through the site's ASGI application.

A socket opens only when the whole ``Origin`` (scheme, host and port) is the page's own, as
Django's CSRF check demands of an HTTPS form, or a ``CSRF_TRUSTED_ORIGINS`` entry. The probe
is ``/ws/echo/``, which needs nothing else.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from durak_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db]

SettingsWrapper = Any  # pytest-django's ``settings`` fixture


async def opens(
    origin: str | None,
    host: str = "testserver",
    *,
    scheme: str = "ws",
    extra: tuple[tuple[bytes, bytes], ...] = (),
) -> bool:
    headers = [(b"host", host.encode()), *extra]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    communicator = WebsocketCommunicator(application, "/ws/echo/", headers=headers)
    communicator.scope["scheme"] = scheme
    connected, _code = await communicator.connect(timeout=5)
    if connected:
        await communicator.disconnect()
    return bool(connected)


async def test_the_pages_own_origin_opens() -> None:
    assert await opens("http://testserver")
    assert await opens("http://127.0.0.1:8000", host="127.0.0.1:8000")


async def test_a_missing_origin_is_refused() -> None:
    assert not await opens(None)


async def test_a_null_origin_is_refused() -> None:
    assert not await opens("null")


async def test_a_wrong_scheme_is_refused() -> None:
    assert not await opens("https://testserver")  # the socket is plain ws
    assert not await opens("http://testserver", scheme="wss")  # the page was served over https


async def test_a_secure_socket_opens_from_its_https_page() -> None:
    assert await opens("https://testserver", scheme="wss")


async def test_the_proxys_https_header_counts_as_django_counts_it(settings: SettingsWrapper) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    https = ((b"x-forwarded-proto", b"https"),)
    assert await opens("https://testserver", extra=https)
    assert not await opens("http://testserver", extra=https)


async def test_a_wrong_port_is_refused() -> None:
    assert not await opens("http://testserver:8001")
    assert not await opens("http://127.0.0.1:8001", host="127.0.0.1:8000")
    assert not await opens("http://127.0.0.1", host="127.0.0.1:8000")


@pytest.mark.parametrize(
    "origin",
    [
        "http://testserver.evil.example",
        "http://eviltestserver",
        "http://testserver@evil.example",
        "http://evil.example",
        "http://localhost",  # an allowed host, but not the one the socket was opened on
    ],
)
async def test_a_look_alike_or_other_host_is_refused(origin: str) -> None:
    assert not await opens(origin)


async def test_a_host_outside_allowed_hosts_is_refused() -> None:
    assert not await opens("http://evil.example", host="evil.example")


async def test_csrf_trusted_origins_open_exactly(settings: SettingsWrapper) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://durak.example", "https://*.club.example"]
    assert await opens("https://durak.example")
    assert not await opens("http://durak.example")
    assert not await opens("https://durak.example:8443")
    assert await opens("https://play.club.example")
    assert await opens("https://club.example")
    assert not await opens("http://play.club.example")
    assert not await opens("https://play.club.example.evil")
