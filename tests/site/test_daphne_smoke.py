"""Smoke test: ``manage.py serve`` in a subprocess serves a page and the echo websocket.

The embedded run uses a throw-away SQLite file; the Redis run goes through the pub/sub channel layer
and keeps a socket idle past redis-py's 5 s default timeout, which dropped it with close code 1011
under channels_redis's list-based layer.
"""

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .helpers import ROOT, WebSocket, clean_env, free_port, manage, stop_group

#: How long a server may take to answer its first request: Django, Channels and the embedded
#: Celery worker start in seconds on an idle machine, and much slower on a busy 2-core one.
READY_WITHIN = 120.0


@contextmanager
def serving(env: dict[str, str], log: Path) -> Iterator[tuple[int, int]]:
    """``manage.py serve`` on a free port until the block ends (its port and process group); its
    output goes to ``log``.

    Ready is when it answers HTTP (any status: the server says it is up by answering), polled
    until ``READY_WITHIN``, failing at once if the process dies. The server runs in a process group
    of its own, which is ended (SIGTERM, then SIGKILL) whether the block passed, failed or the
    wait ran out, so no server outlives its test."""
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + READY_WITHIN
        while not answers(port):
            if process.poll() is not None:
                raise RuntimeError(f"manage.py serve exited with {process.returncode}:\n{log.read_text()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no answer on port {port} in {READY_WITHIN:.0f} s:\n{log.read_text()}")
            time.sleep(0.2)
        yield port, process.pid
    finally:
        stop_group(process)


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/site.css", timeout=5):
            return True
    except urllib.error.HTTPError:
        return True  # an answer all the same
    except OSError:
        return False


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder = Path(tmp_path_factory.mktemp("serve"))
    env = clean_env(SQLITE_PATH=str(folder / "site.sqlite3"))
    migrated = manage("migrate", "--noinput", env=env, timeout=300)
    assert migrated.returncode == 0, migrated.stderr
    with serving(env, folder / "serve.log") as (port, _group):
        yield port


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
    with serving(env, tmp_path / "serve.log") as (port, _group):
        echo_round_trip(port, "still here", idle=7)


@pytest.mark.slow
def test_a_failing_test_leaves_no_server_behind(tmp_path: Path) -> None:
    """The server of a test that fails is gone with its whole process group (the embedded worker
    included) by the time the failure reaches pytest."""
    env = clean_env(SQLITE_PATH=str(tmp_path / "site.sqlite3"))
    assert manage("migrate", "--noinput", env=env, timeout=300).returncode == 0
    with pytest.raises(AssertionError), serving(env, tmp_path / "serve.log") as (port, group):
        assert not answers(port), "the test fails while its server runs"
    assert not answers(port)
    with pytest.raises(ProcessLookupError):
        os.killpg(group, 0)
