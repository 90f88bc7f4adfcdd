"""The client's address behind proxies: taken from the trusted proxies' end of X-Forwarded-For.

The first entries of the header are whatever the client wrote; only the last
``DJANGO_TRUSTED_PROXIES`` were written by proxies of ours. allauth's per-address limits count by
that address, so a forged header must neither escape them nor lock out someone else.
"""

from __future__ import annotations

import http.cookiejar
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.core.cache import cache

from accounts.models import User
from durak_site.asgi import application
from durak_site.proxy import TrustedProxyMiddleware, client_address

from .helpers import ROOT, clean_env, free_port, manage, wait_for_port

SettingsWrapper = Any  # pytest-django's ``settings`` fixture (its wrapper class is private)

PROXY = ("127.0.0.1", 40000)  # the socket's peer: the nginx in front of daphne
PASSWORD = "a-long-card-table-password"


def xff(value: str) -> list[tuple[bytes, bytes]]:
    return [(b"x-forwarded-for", value.encode())]


# --- the rule ---------------------------------------------------------------------------------


def test_without_trusted_proxies_the_header_is_ignored() -> None:
    assert client_address(xff("203.0.113.7"), 0) is None


def test_one_proxy_trusts_only_the_last_entry() -> None:
    assert client_address(xff("1.2.3.4, 5.6.7.8, 203.0.113.7"), 1) == "203.0.113.7"


def test_two_proxies_take_the_entry_the_outer_one_wrote() -> None:
    assert client_address(xff("1.2.3.4, 203.0.113.7, 10.0.0.2"), 2) == "203.0.113.7"


def test_header_lines_are_one_list_in_order() -> None:
    headers = [(b"x-forwarded-for", b"1.2.3.4"), (b"X-Forwarded-For", b"203.0.113.7")]
    assert client_address(headers, 1) == "203.0.113.7"


def test_a_shorter_chain_takes_the_first_proxys_view() -> None:
    assert client_address(xff("203.0.113.7"), 2) == "203.0.113.7"


@pytest.mark.parametrize("value", ["", "unknown", "not-an-ip, ", "1.2.3.4, 300.1.1.1"])
def test_an_entry_that_is_no_address_keeps_the_socket_peer(value: str) -> None:
    assert client_address(xff(value), 1) is None


def test_ipv6_entries_are_normalised() -> None:
    assert client_address(xff("[2001:DB8::1]"), 1) == "2001:db8::1"


# --- the scope, for HTTP and websockets ------------------------------------------------------


async def _scope_seen(scope: dict[str, Any], settings: SettingsWrapper, proxies: int) -> dict[str, Any]:
    settings.TRUSTED_PROXIES = proxies
    seen: dict[str, Any] = {}

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.update(scope)

    await TrustedProxyMiddleware(inner)(scope, None, None)
    return seen


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_the_scope_client_is_the_trusted_entry(kind: str, settings: SettingsWrapper) -> None:
    scope = {"type": kind, "client": list(PROXY), "headers": xff("6.6.6.6, 203.0.113.7")}
    assert (await _scope_seen(scope, settings, 1))["client"] == ["203.0.113.7", 0]


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_a_forged_header_without_trusted_proxies_changes_nothing(
    kind: str, settings: SettingsWrapper
) -> None:
    scope = {"type": kind, "client": list(PROXY), "headers": xff("203.0.113.7")}
    assert (await _scope_seen(scope, settings, 0))["client"] == list(PROXY)


def test_the_site_application_applies_the_rule() -> None:
    assert isinstance(application, TrustedProxyMiddleware)


# --- allauth's limits through the whole ASGI application --------------------------------------


@pytest.fixture
def one_proxy(settings: SettingsWrapper) -> None:
    settings.TRUSTED_PROXIES = 1
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()


async def _request(
    method: str, path: str, forwarded: str, *, cookies: dict[str, str], body: dict[str, str] | None = None
) -> dict[str, Any]:
    headers = [(b"host", b"testserver"), *xff(forwarded)]
    if cookies:
        headers.append((b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()))
    payload = b""
    if body is not None:
        payload = urlencode(body).encode()
        headers.append((b"content-type", b"application/x-www-form-urlencoded"))
    communicator = HttpCommunicator(application, method, path, body=payload, headers=headers)
    communicator.scope["client"] = list(PROXY)
    response: dict[str, Any] = await communicator.get_response(timeout=10)
    for name, value in response["headers"]:
        if name.lower() == b"set-cookie":
            key, _, rest = value.decode().partition("=")
            cookies[key] = rest.split(";", 1)[0]
    return response


async def _login(forwarded: str, email: str, password: str) -> dict[str, Any]:
    cookies: dict[str, str] = {}
    page = await _request("GET", "/accounts/login/", forwarded, cookies=cookies)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page["body"])
    assert token is not None
    body = {"csrfmiddlewaretoken": token.group(1).decode(), "login": email, "password": password}
    return await _request("POST", "/accounts/login/", forwarded, cookies=cookies, body=body)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_forged_first_entry_does_not_escape_the_failed_login_limit(one_proxy: None) -> None:
    """Ten failures from one real address, each with another forged address in front: the
    eleventh attempt from that address is refused, whatever the header claims."""
    for attempt in range(10):
        response = await _login(f"10.9.8.{attempt}, 203.0.113.7", f"nobody{attempt}@example.com", "x")
        assert b"Too many failed login attempts" not in response["body"]
    response = await _login("10.9.8.99, 203.0.113.7", "nobody@example.com", "x")
    assert b"Too many failed login attempts" in response["body"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_someone_elses_failures_behind_the_same_proxy_do_not_lock_a_player_out(one_proxy: None) -> None:
    """Honest players all reach daphne through the one proxy: an attacker's failed logins count
    against the attacker's address, not against the proxy's, so Vasya still gets in."""
    await sync_to_async(User.objects.create_user)(
        username="vasya", email="vasya@example.com", password=PASSWORD, display_name="Vasya"
    )
    for attempt in range(11):
        await _login("203.0.113.66", f"nobody{attempt}@example.com", "x")
    response = await _login("198.51.100.4", "vasya@example.com", PASSWORD)
    assert response["status"] == 302


# --- the real chain: daphne (no --proxy-headers) behind a proxy that appends ----------------


@pytest.fixture(scope="module")
def daphne_behind_one_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """``manage.py serve`` (daphne as production runs it) with ``DJANGO_TRUSTED_PROXIES=1``; the
    test plays the nginx in front, appending the client's address as ``$proxy_add_x_forwarded_for``
    does."""
    database = Path(tmp_path_factory.mktemp("proxy")) / "site.sqlite3"
    env = clean_env(SQLITE_PATH=str(database), DJANGO_TRUSTED_PROXIES="1")
    migrated = manage("migrate", "--noinput", env=env)
    assert migrated.returncode == 0, migrated.stderr
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    wait_for_port(port, process)
    yield port
    process.terminate()
    process.wait(timeout=10)


def _login_through(port: int, forwarded: str, email: str) -> str:
    """One failed login, as a browser behind the proxy sends it; the page that comes back."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.addheaders = [("X-Forwarded-For", forwarded)]
    url = f"http://127.0.0.1:{port}/accounts/login/"
    with opener.open(url, timeout=10) as response:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.read().decode())
    assert token is not None
    body = urlencode({"csrfmiddlewaretoken": token.group(1), "login": email, "password": "x"}).encode()
    with opener.open(urllib.request.Request(url, data=body), timeout=10) as response:
        return str(response.read().decode())


@pytest.mark.slow
def test_through_daphne_forged_entries_count_as_the_one_real_client(daphne_behind_one_proxy: int) -> None:
    port = daphne_behind_one_proxy
    for attempt in range(10):
        page = _login_through(port, f"10.1.2.{attempt}, 203.0.113.7", f"nobody{attempt}@example.com")
        assert "Too many failed login attempts" not in page
    assert "Too many failed login attempts" in _login_through(port, "10.1.2.99, 203.0.113.7", "x@example.com")
    # Another real client behind the same proxy is not locked out by those failures.
    assert "Too many failed login attempts" not in _login_through(port, "198.51.100.4", "y@example.com")
