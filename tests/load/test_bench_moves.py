"""``manage.py bench_moves`` at a small scale: its report's shape, its clean-up, and that it says
when it measures with ``DEBUG`` on (every query logged, templates checked for changes), so that
two runs compared are known to be run alike. Not a timed test: the figures are the command's
output, read by a person."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import override_settings

from accounts.models import User
from games.models import Table

STEPS = ("apply", "mover", "other", "move")


@pytest.mark.parametrize("debug", [False, True])
def test_bench_moves_reports_each_step_says_whether_debug_was_on_and_leaves_nothing(
    db: None, capsys: pytest.CaptureFixture[str], debug: bool
) -> None:
    with override_settings(DEBUG=debug):
        call_command("bench_moves", "--moves", "6", "--json")
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["moves"] == 6 and report["debug"] is debug
    for step in STEPS:
        assert report[step]["cpu_ms"] > 0
    assert report["apply"]["queries"] > 0 and report["other"]["bytes"] > 0
    assert report["move"]["cpu_ms"] >= report["apply"]["cpu_ms"]
    assert ("DJANGO_DEBUG=0" in captured.err) is debug
    assert not User.objects.filter(username__startswith="bench-").exists()
    assert not Table.objects.exists()
