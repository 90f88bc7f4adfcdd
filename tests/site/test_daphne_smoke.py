"""Smoke test: ``manage.py serve`` in a subprocess serves a page and the echo websocket.

The embedded run uses a throw-away SQLite file; the Redis run goes through the pub/sub channel layer
and keeps a socket idle past redis-py's 5 s default timeout, which dropped it with close code 1011
under channels_redis's list-based layer.
"""

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import ROOT, WebSocket, clean_env, free_port, manage, wait_for_port


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    wait_for_port(port, process)
    return process, port


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    database = Path(tmp_path_factory.mktemp("serve")) / "site.sqlite3"
    env = clean_env(SQLITE_PATH=str(database))
    migrated = manage("migrate", "--noinput", env=env)
    assert migrated.returncode == 0, migrated.stderr
    process, port = start_server(env)
    yield port
    process.terminate()
    process.wait(timeout=10)


def echo_round_trip(port: int, text: str, idle: float = 0) -> None:
    socket = WebSocket(port, "/ws/echo/")
    try:
        assert socket.status == 101
        if idle:
            time.sleep(idle)
        socket.send_text(text)
        assert socket.receive() == (1, text.encode())
    finally:
        socket.close()


@pytest.mark.slow
def test_serve_renders_the_home_page(embedded_server: int) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{embedded_server}/", timeout=10) as response:
        assert response.status == 200
        page = response.read().decode()
        assert "Durak" in page
        assert "content-security-policy" in {k.lower() for k in response.headers}


@pytest.mark.slow
def test_serve_serves_static_files(embedded_server: int) -> None:
    url = f"http://127.0.0.1:{embedded_server}/static/django_htmx/ext/hx-ws-2.min.js"
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200


@pytest.mark.slow
def test_serve_echoes_over_a_websocket(embedded_server: int) -> None:
    echo_round_trip(embedded_server, "ping ♠")


@pytest.mark.slow
def test_websocket_from_a_foreign_origin_is_refused(embedded_server: int) -> None:
    socket = WebSocket(embedded_server, "/ws/echo/", origin="http://evil.example")
    try:
        assert socket.status == 403
    finally:
        socket.close()


@pytest.mark.redis
@pytest.mark.slow
def test_redis_channel_layer_keeps_an_idle_socket(tmp_path: Path) -> None:
    env = clean_env(SQLITE_PATH=str(tmp_path / "site.sqlite3"), REDIS_URL=os.environ["REDIS_URL"])
    process, port = start_server(env)
    try:
        echo_round_trip(port, "still here", idle=7)
    finally:
        process.terminate()
        process.wait(timeout=10)
