"""The site as real processes for the fault and scale-out tests: daphne servers, Celery workers
and beat, and a redis-server of their own, on free ports, sharing this test run's PostgreSQL
database.

The processes use the test database itself (``transactional_db``: what a test writes is committed
and visible to them), so the test prepares tables through the services and checks the database
directly. Redis is a private ``redis-server`` per stack rather than the run's Redis database: a
test may restart it, and a worker must never take a task queued by another test run on the same
machine (the run's database number is per xdist worker, not per run). Tasks the test process
itself enqueued when dealing went to the run's broker, so ``rearm`` re-enqueues them in the stack.
Everything started is stopped in ``close`` (the fixture calls it), killed if it does not stop;
the processes' logs are kept in the test's ``tmp_path``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis
from django.conf import settings

from durak_site.celery import app
from tests.site.helpers import free_port, stop
from tools.management.commands.loadtest import child_env

ROOT = Path(settings.BASE_DIR)


class Stack:
    """Processes of one test, by name."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder  # logs stay there for a failing test (pytest keeps its tmp_path)
        self.redis = RedisServer(self.folder)
        self.redis.start()
        self.env = child_env()
        self.env["REDIS_URL"] = self.redis.url
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: dict[str, Path] = {}
        self.ports: dict[str, int] = {}

    def rearm(self) -> None:
        """``manage.py rearm_matches`` in the stack: the deal's bot turns."""
        done = subprocess.run(
            [sys.executable, "manage.py", "rearm_matches"],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr

    def send(self, task: str, *args: object, countdown: float | None = None) -> None:
        """Enqueue the task called ``task`` on the stack's broker (not the run's)."""
        with app.connection_for_write(self.redis.url) as connection:
            app.send_task(task, args=args, countdown=countdown, connection=connection)

    def _start(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        log = self.folder / f"{name}.log"
        self.logs[name] = log
        with log.open("ab") as out:
            process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        self.processes[name] = process
        return process

    def daphne(self, name: str, port: int | None = None) -> int:
        """Start (or restart on its old port) a daphne called ``name``; its port."""
        port = port or self.ports.get(name) or free_port()
        self.ports[name] = port
        process = self._start(
            name,
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "durak_site.asgi:application",
            ],
        )
        wait_for_port(port, process, self.log(name))
        return port

    def worker(self, name: str) -> None:
        """Start a Celery worker called ``name`` (one pool process, INFO log to see its tasks)."""
        process = self._start(
            name,
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "durak_site",
                "worker",
                "--concurrency",
                "1",
                "--loglevel",
                "INFO",
                "--without-mingle",
                "--without-gossip",
                "--hostname",
                f"{name}-{os.getpid()}@%h",
            ],
        )
        deadline = time.monotonic() + 60
        while not _children(process.pid):  # the pool forks once the worker is set up
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"worker {name} did not start:\n{self.log(name)[-3000:]}")
            time.sleep(0.2)
        time.sleep(0.5)

    def beat(self, name: str = "beat") -> None:
        """Start ``celery beat`` (its clock plays the deadlines that ran out, twice a second)."""
        schedule = self.folder / "beat-schedule"
        self._start(
            name,
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "durak_site",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(schedule),
            ],
        )

    def kill(self, name: str) -> None:
        """SIGKILL: no cleanup, no goodbye, like a crash or the OOM killer (children too)."""
        process = self.processes.pop(name)
        children = _children(process.pid)
        process.kill()
        process.wait(timeout=10)
        _kill(children)

    def running(self, name: str) -> bool:
        """Whether the process ``name`` is still running (nothing restarts it behind the test)."""
        process = self.processes.get(name)
        return process is not None and process.poll() is None

    def log(self, name: str) -> str:
        path = self.logs.get(name)
        return path.read_text(errors="replace") if path and path.exists() else ""

    def close(self) -> None:
        for name in list(self.processes):
            process = self.processes.pop(name)
            children = _children(process.pid)
            stop(process)
            _kill(children)
        self.redis.stop()


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (a Celery worker's pool)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False)
    return [int(child) for child in found.stdout.split()]


def _kill(pids: list[int]) -> None:
    """Kill what a dead process left behind (a pool child outlives a SIGKILLed parent)."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: str = "", timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on port {port} after {timeout:.0f} s")


class RedisServer:
    """A redis-server of this test alone (no persistence), which it may stop and start again."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, self.process, timeout=20)

    def unacked(self) -> int:
        """How many messages workers hold unacknowledged (kombu's ``unacked`` hash), e.g. tasks
        taken ahead of their countdown."""
        with redis.Redis.from_url(self.url) as client:
            return int(client.hlen("unacked"))

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None
