"""A PostgreSQL server of one test alone, which it may stop and start again on the same port.

Made with ``initdb`` in a folder of its own (as the ``postgres`` user when the test runs as root:
PostgreSQL refuses to run as root), trusting local connections, without fsync; removed by
``close``, whatever happened.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.site.helpers import free_port


def _bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / name).exists():
            return str(folder / name)
    raise FileNotFoundError(name)


class PostgresServer:
    """``start``, ``stop`` (immediate: like a crash) and ``close``; ``url`` reaches its ``postgres``
    database as the ``postgres`` user."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="durak-pg-"))
        self.data = self.folder / "data"
        self.as_user: list[str] = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run(_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [*self.as_user, *command], capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            _bin("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )

    def stop(self) -> None:
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def close(self) -> None:
        if (self.data / "postmaster.pid").exists():
            subprocess.run(
                [*self.as_user, _bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"],
                capture_output=True,
                timeout=60,
                check=False,
            )
        shutil.rmtree(self.folder, ignore_errors=True)
