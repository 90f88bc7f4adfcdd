"""Websocket limits per client address and per account (``durak_site.socket_limits``), the session
lookup off the shared thread (``durak_site.socket_auth``), the catch-all for unknown paths and the
personal socket's heartbeat limit, through the site's own ASGI application.

Each test takes addresses of its own (``fresh_address``), so the counts of one test (in process,
or in the worker's Redis database) never meet another's.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from durak_site import socket_auth, socket_counts
from durak_site.asgi import application
from durak_site.consumers import CLOSE_NO_ROUTE
from durak_site.socket_limits import CLOSE_LIMITED
from people import services as people_services
from people.routing import websocket_urlpatterns as people_routes
from tests.play.services_support import make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 5
SettingsWrapper = Any  # pytest-django's ``settings`` fixture


@pytest.fixture(autouse=True)
def _fresh_counts() -> Iterator[None]:
    """No count outlives its test: the accounts' ids come round again in the next test's database."""
    yield
    socket_counts._counts.clear()
    if django_settings.REDIS_URL:
        client = redis.Redis.from_url(django_settings.REDIS_URL)
        for key in client.scan_iter("durak:ws:*"):
            client.delete(key)


def fresh_address() -> str:
    """An address no other test uses (in the documentation prefix, with a random host part)."""
    return f"2001:db8::{uuid.uuid4().hex[:4]}:{uuid.uuid4().hex[:4]}"


def socket(path: str, address: str, *, cookie: str = "") -> WebsocketCommunicator:
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    communicator.scope["client"] = [address, 40000]
    return communicator


async def opens(communicator: WebsocketCommunicator) -> tuple[bool, Any]:
    connected, code = await communicator.connect(timeout=TIMEOUT)
    return bool(connected), code


async def signed_in_cookie(name: str) -> tuple[Any, str]:
    user = await sync_to_async(make_user)(name)
    client = Client()
    await sync_to_async(client.force_login)(user)
    return (
        user,
        f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}",
    )


async def test_a_handshake_over_the_address_rate_is_refused_before_the_session_is_read(
    settings: SettingsWrapper,
) -> None:
    settings.WEBSOCKET_HANDSHAKE_RATE = (0.001, 2)
    _user, cookie = await signed_in_cookie("flooder")
    address = fresh_address()
    with mock.patch.object(socket_auth, "user_of", wraps=socket_auth.user_of) as lookup:
        first, second = (
            socket("/ws/echo/", address, cookie=cookie),
            socket("/ws/echo/", address, cookie=cookie),
        )
        assert (await opens(first))[0] and (await opens(second))[0]
        assert lookup.call_count == 2
        refused = socket("/ws/echo/", address, cookie=cookie)
        assert await opens(refused) == (False, CLOSE_LIMITED)
        assert lookup.call_count == 2  # the session store was never asked
        # From another address the handshake passes the address's limit, and its account's
        # (counted once the session is read) refuses it.
        assert await opens(socket("/ws/echo/", fresh_address(), cookie=cookie)) == (False, CLOSE_LIMITED)
        assert lookup.call_count == 3
        assert (await opens(socket("/ws/echo/", fresh_address())))[0]  # anonymous from another address
        await first.disconnect()
        await second.disconnect()


async def test_an_anonymous_handshake_reads_no_session() -> None:
    with mock.patch.object(socket_auth, "user_of") as lookup:
        communicator = socket("/ws/echo/", fresh_address())
        assert (await opens(communicator))[0]
        await communicator.disconnect()
    lookup.assert_not_called()


async def test_the_open_sockets_of_an_address_are_capped_and_given_back_on_disconnect(
    settings: SettingsWrapper,
) -> None:
    settings.WEBSOCKET_OPEN_PER_ADDRESS = 2
    address = fresh_address()
    first, second = socket("/ws/echo/", address), socket("/ws/echo/", address)
    assert (await opens(first))[0] and (await opens(second))[0]
    assert await opens(socket("/ws/echo/", address)) == (False, CLOSE_LIMITED)
    await first.disconnect()
    third = socket("/ws/echo/", address)
    assert (await opens(third))[0]
    await second.disconnect()
    await third.disconnect()


async def test_a_socket_the_server_closes_gives_its_place_back(settings: SettingsWrapper) -> None:
    """However the socket ends: here the personal socket closes an anonymous visitor itself."""
    settings.WEBSOCKET_OPEN_PER_ADDRESS = 1
    address = fresh_address()
    for _ in range(3):
        assert await opens(socket("/ws/me/", address)) == (False, 4401)
    kept = socket("/ws/echo/", address)
    assert (await opens(kept))[0]
    await kept.disconnect()


async def test_a_cancelled_socket_gives_its_place_back(settings: SettingsWrapper) -> None:
    settings.WEBSOCKET_OPEN_PER_ADDRESS = 1
    address = fresh_address()
    dropped = socket("/ws/echo/", address)
    assert (await opens(dropped))[0]
    dropped.future.cancel()  # as daphne cancels an application whose client vanished
    await dropped.wait(timeout=TIMEOUT)
    again = socket("/ws/echo/", address)
    assert (await opens(again))[0]
    await again.disconnect()


async def test_the_open_sockets_of_an_account_are_capped_over_every_address(
    settings: SettingsWrapper,
) -> None:
    settings.WEBSOCKET_OPEN_PER_ACCOUNT = 2
    _user, cookie = await signed_in_cookie("many_tabs")
    first = socket("/ws/echo/", fresh_address(), cookie=cookie)
    second = socket("/ws/echo/", fresh_address(), cookie=cookie)
    assert (await opens(first))[0] and (await opens(second))[0]
    assert await opens(socket("/ws/echo/", fresh_address(), cookie=cookie)) == (False, CLOSE_LIMITED)
    anonymous = socket("/ws/echo/", fresh_address())  # the account's cap is its own
    assert (await opens(anonymous))[0]
    await first.disconnect()
    third = socket("/ws/echo/", fresh_address(), cookie=cookie)
    assert (await opens(third))[0]
    for communicator in (second, third, anonymous):
        await communicator.disconnect()


async def test_a_refusal_is_one_warning_line_without_a_traceback(
    settings: SettingsWrapper, caplog: pytest.LogCaptureFixture
) -> None:
    settings.WEBSOCKET_HANDSHAKE_RATE = (0.001, 1)
    address = fresh_address()
    kept = socket("/ws/echo/", address)
    assert (await opens(kept))[0]
    with caplog.at_level(logging.INFO):
        for _ in range(5):
            assert await opens(socket("/ws/echo/", address)) == (False, CLOSE_LIMITED)
    refusals = [r for r in caplog.records if "websocket refused" in r.getMessage()]
    assert len(refusals) == 1  # once per address and reason every few seconds
    assert refusals[0].levelno == logging.WARNING and refusals[0].exc_info is None
    assert address in refusals[0].getMessage()
    await kept.disconnect()


@pytest.mark.parametrize("path", ["/ws/nonsense/", "/ws/match/abc/", "/", "/ws/echo/extra/"])
async def test_an_unknown_path_is_closed_without_an_error_log(
    path: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        assert await opens(socket(path, fresh_address())) == (False, CLOSE_NO_ROUTE)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r for r in caplog.records if "no route" in r.getMessage() and r.levelno <= logging.WARNING]


async def test_the_personal_sockets_heartbeats_are_limited(settings: SettingsWrapper) -> None:
    settings.WEBSOCKET_HEARTBEAT_RATE = (0.001, 3)
    olga = await sync_to_async(make_user)("olga")
    communicator = WebsocketCommunicator(URLRouter(people_routes), "/ws/me/")
    communicator.scope["user"] = olga
    assert (await communicator.connect(timeout=TIMEOUT))[0]
    with mock.patch.object(people_services, "presence_beat", wraps=people_services.presence_beat) as beat:
        for _ in range(10):
            await communicator.send_to(text_data="beat")
        await communicator.disconnect()  # handled after every frame sent before it
    assert beat.call_count == 3


async def test_the_counts_are_shared_by_every_process_over_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two ``RedisCounts`` as two daphnes: one cap for both; a dead one's leases run out."""
    if not django_settings.REDIS_URL:
        pytest.skip("needs REDIS_URL")
    now = [1_000_000.0]
    monkeypatch.setattr(socket_counts, "time", SimpleNamespace(time=lambda: now[0], monotonic=time.monotonic))
    one, other = (
        socket_counts.RedisCounts(django_settings.REDIS_URL),
        socket_counts.RedisCounts(django_settings.REDIS_URL),
    )
    key = f"address:{fresh_address()}"
    assert await one.admit(key, "a", open_limit=2) is None
    assert await other.admit(key, "b", open_limit=2) is None
    assert await one.admit(key, "c", open_limit=2) is socket_counts.Refusal.OPEN
    await other.release(key, "b")
    assert await one.admit(key, "c", open_limit=2) is None
    # ``one`` dies holding "a" and "c": once their leases run out, the address is free again.
    one.held.clear()
    now[0] += socket_counts.LEASE_SECONDS + 1
    assert await other.admit(key, "d", open_limit=2) is None
    assert await other.admit(key, "e", open_limit=2) is None
    await other.release(key, "d")
    await other.release(key, "e")
    rate_key = f"address:{fresh_address()}"
    verdicts = [await other.admit(rate_key, str(n), open_limit=100, rate=1.0, burst=2) for n in range(3)]
    assert verdicts == [None, None, socket_counts.Refusal.RATE]
    now[0] += 1.0
    assert await other.admit(rate_key, "3", open_limit=100, rate=1.0, burst=2) is None
    now[0] -= 1.0  # a call sent earlier, arriving late: no second refill of the same second
    assert (
        await other.admit(rate_key, "late", open_limit=100, rate=1.0, burst=2) is socket_counts.Refusal.RATE
    )
    now[0] += 1.0
    assert (
        await other.admit(rate_key, "again", open_limit=100, rate=1.0, burst=2) is socket_counts.Refusal.RATE
    )
    for n in range(4):
        await other.release(rate_key, str(n))


async def test_the_limits_hold_in_process_while_redis_does_not_answer() -> None:
    counts = socket_counts.RedisCounts("redis://127.0.0.1:1/0")  # nothing listens there
    key = f"address:{fresh_address()}"
    assert await counts.admit(key, "a", open_limit=1) is None
    assert await counts.admit(key, "b", open_limit=1) is socket_counts.Refusal.OPEN
    await counts.release(key, "a")
    assert await counts.admit(key, "b", open_limit=1) is None
    await counts.release(key, "b")
