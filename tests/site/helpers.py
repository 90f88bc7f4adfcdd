"""Helpers for tests that run the site in subprocesses: clean environments and a tiny websocket client.

The websocket client speaks just enough RFC 6455 (handshake, one masked text frame out, one frame
in) to probe a server without another dependency.
"""

import base64
import os
import secrets
import signal
import socket
import struct
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICE_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "DJANGO_ENV",
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "EMAIL_HOST",
    "SQLITE_PATH",
)


def clean_env(**overrides: str) -> dict[str, str]:
    """This process's environment without any site variable, plus ``overrides``.

    pytest's own variables go too: under them the settings move Redis to a per-run database
    (``durak_site.env.redis_url_for_tests``), and a child process is the site, not the test run.
    """
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES and not k.startswith("PYTEST_")}
    env["DJANGO_SETTINGS_MODULE"] = "durak_site.settings"
    env.update(overrides)
    return env


def run_python(code: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with this interpreter from the project root."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def manage(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, process: subprocess.Popen[str], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{process.communicate()[0]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listening on port {port} after {timeout} s")


def stop(process: subprocess.Popen[str] | subprocess.Popen[bytes], timeout: float = 10) -> None:
    """End ``process`` politely (SIGTERM), and for sure (SIGKILL) if it outstays ``timeout``."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


def stop_group(process: subprocess.Popen[str] | subprocess.Popen[bytes]) -> None:
    """End the process group ``process`` leads (started with ``start_new_session``): politely,
    then for sure, so no server or worker it started outlives the test."""
    for sig, wait in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 10.0)):
        with suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


class WebSocket:
    """A blocking websocket client for tests: text frames only, no fragmentation."""

    def __init__(self, port: int, path: str, origin: str | None = None, timeout: float = 10) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        origin = origin or f"http://127.0.0.1:{port}"
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {origin}\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1024)
            if not chunk:
                break
            head += chunk
        self.status = int(head.split(b" ", 2)[1]) if head else 0

    def send_text(self, text: str) -> None:
        payload = text.encode()
        assert len(payload) < 126, "short frames only"
        mask = secrets.token_bytes(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)

    def _read_exact(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                raise ConnectionError("socket closed")
            data += chunk
        return data

    def receive(self) -> tuple[int, bytes]:
        """The next frame as ``(opcode, payload)``; opcode 1 is text, 8 is close."""
        first, second = self._read_exact(2)
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self._read_exact(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self._read_exact(8))
        return first & 0x0F, self._read_exact(length)

    def close(self) -> None:
        self.sock.close()
