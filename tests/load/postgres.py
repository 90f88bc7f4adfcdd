"""A PostgreSQL server of one test alone: ``initdb`` into a temporary folder, its own port, the
``max_connections`` the test states, stopped and removed at the end.

Why its own: the hostile-load test asserts that the stack's connections stay under a ceiling, and
that no request fails for want of one; on the run's shared server other tests' connections would
count and the ceiling could not be stated. Like the fault tests' private redis-server
(``tests.faults.stack.RedisServer``), it needs nothing but the server's binaries on the machine.
Durability is off (``fsync``): the data is thrown away.

PostgreSQL refuses to run as root: under root (CI) the server runs as the ``postgres`` account.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from tests.faults.stack import wait_for_port
from tests.site.helpers import free_port


def _bindir() -> Path:
    found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True)
    return Path(found.stdout.strip())


class PrivatePostgres:
    """``start()``, then ``url`` names database ``durak`` on it; ``stop()`` removes everything."""

    def __init__(self, *, max_connections: int) -> None:
        self.max_connections = max_connections
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="durak-pg-"))
        self.process: subprocess.Popen[bytes] | None = None
        self.user = "postgres" if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/durak"

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            command, capture_output=True, text=True, user=self.user, check=False, timeout=120
        )
        assert done.returncode == 0, done.stderr

    def start(self) -> None:
        if self.user is not None:
            account = pwd.getpwnam(self.user)
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        data = self.folder / "data"
        bindir = _bindir()
        self._run(
            str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--locale", "C", "--no-sync",
        )  # fmt: skip
        log = (self.folder / "server.log").open("ab")
        self.process = subprocess.Popen(
            [
                str(bindir / "postgres"),
                "-D", str(data),
                "-p", str(self.port),
                "-k", str(self.folder),
                "-c", "listen_addresses=127.0.0.1",
                "-c", f"max_connections={self.max_connections}",
                "-c", "fsync=off",
                "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            user=self.user,
        )  # fmt: skip
        log.close()
        wait_for_port(self.port, self.process, timeout=60)
        deadline = time.monotonic() + 60
        while True:  # the port opens before the server accepts sessions
            try:
                with psycopg.connect(
                    f"postgres://postgres@127.0.0.1:{self.port}/postgres", autocommit=True
                ) as db:
                    db.execute("CREATE DATABASE durak")
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()  # SIGTERM: "smart" shutdown; the sessions are gone by now
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
            self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)
