"""``make run`` serves on the port a newcomer asks for (``make run PORT=8100``), 8000 without one,
and the README says so; beat's schedule file is never left untracked in the repository."""

import shutil
import subprocess

import pytest

from .helpers import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def planned_serve(*arguments: str) -> str:
    """The serve line ``make run`` would run (``make -n``: nothing is built or started)."""
    plan = subprocess.run(
        ["make", "-n", "run", *arguments], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    ).stdout
    (line,) = [line for line in plan.splitlines() if "manage.py serve" in line]
    return line


def test_make_run_serves_on_the_port_asked_for() -> None:
    assert planned_serve("PORT=8100").endswith("--bind 127.0.0.1 --port 8100")
    assert planned_serve().endswith("--bind 127.0.0.1 --port 8000")
    assert "make run PORT=8100" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_beats_schedule_file_is_ignored() -> None:
    for name in ("celerybeat-schedule", "celerybeat-schedule.db", "celerybeat-schedule.dir"):
        ignored = subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT, check=False, timeout=30)
        assert ignored.returncode == 0, name
