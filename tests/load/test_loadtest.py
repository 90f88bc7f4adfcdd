"""``manage.py loadtest`` at a small scale: a smoke test, not a timed one.

The command starts its own servers on the test database, plays a few tables for a few seconds
and must report no error in the JSON shape docs/performance.md documents. The frame reader the scripted
players rely on is checked against the real match fragments, so a template change that would
blind the load test fails here first.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from games.models import Match
from play import selectors
from play.fragments import match_fragments
from tests.play.services_support import make_user, start_match
from tools.loadclient import percentile, read_frame

REPORT_KEYS = {"tables", "moves", "moves_per_s", "p50_ms", "p95_ms", "p99_ms", "echo_p99_ms", "errors"}


def run_loadtest(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    call_command("loadtest", "--json", *args)
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def assert_clean(report: dict[str, float], tables: int) -> None:
    assert set(report) == REPORT_KEYS
    assert report["tables"] == tables
    assert report["errors"] == 0
    assert report["moves"] > 0 and report["moves_per_s"] > 0
    assert 0 < report["p50_ms"] <= report["p95_ms"] <= report["p99_ms"]
    assert report["echo_p99_ms"] > 0


@pytest.mark.django_db
def test_the_frame_reader_understands_the_match_fragments() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob])
    mover = next(p.user for p in match.players.all() if p.seat in _awaited(match))
    loaded = selectors.match_load(match_id=match.pk)
    assert loaded is not None
    html, version, _seq = match_fragments(loaded, mover)
    frame = read_frame(html)
    assert frame.version == version == 0
    assert frame.your_move and frame.active and frame.legal
    assert frame.error_code == ""
    other = bob if mover == alice else alice
    assert read_frame(match_fragments(loaded, other)[0]).legal == ()


def _awaited(match: Match) -> set[int]:
    from tests.play.services_support import match_state

    return set(match_state(match).awaiting())


def test_percentiles_use_the_nearest_rank() -> None:
    values = [float(n) for n in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95), percentile(values, 0.99)) == (50, 95, 99)
    assert percentile([], 0.99) == 0


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_small_run_on_postgres_and_redis_has_no_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    series = tmp_path / "series.csv"
    report = run_loadtest(
        capsys,
        "--tables",
        "4",
        "--duration",
        "8",
        "--echo-duration",
        "2",
        "--think",
        "0.2",
        "--daphnes",
        "2",
        "--workers",
        "1",
        "--series",
        str(series),
    )
    assert_clean(report, 4)
    with series.open() as rows:
        moves = [(float(row["t_s"]), float(row["latency_ms"])) for row in csv.DictReader(rows)]
    assert len(moves) == report["moves"]
    times = [sent for sent, _ in moves]
    assert times == sorted(times) and times[0] >= 0 and times[-1] < 9  # 8 s, and the last think
    assert percentile([latency for _, latency in moves], 0.99) == pytest.approx(report["p99_ms"], abs=0.11)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_small_run_in_the_embedded_mode_has_no_error(capsys: pytest.CaptureFixture[str]) -> None:
    if settings.REDIS_URL or not settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("the embedded mode runs without DATABASE_URL and REDIS_URL")
    report = run_loadtest(
        capsys, "--tables", "2", "--duration", "6", "--echo-duration", "2", "--think", "0.2"
    )
    assert_clean(report, 2)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_bot_tables_report_the_bots_turns_and_what_they_cost(capsys: pytest.CaptureFixture[str]) -> None:
    """``--bots``: one scripted player against a bot at each table. A bot's move never shows
    before its level's think wait (``play.services.turn.think_out``), so every turn the player
    timed is at least that long; the searched decisions are counted from ``/ops/metrics``."""
    report = run_loadtest(
        capsys,
        *("--bots", "medium", "--tables", "2", "--duration", "8", "--echo-duration", "0", "--think", "0.2"),
        *("--daphnes", "1", "--workers", "1"),
    )
    assert report["errors"] == 0 and report["moves"] > 0
    assert report["bot_level"] == "medium" and report["bot_moves_per_s"] > 0
    assert report["bot_think_ms"] == 250.0
    assert report["bot_think_ms"] <= report["bot_turn_p50_ms"] <= report["bot_turn_p99_ms"]
    assert report["bot_searched"] > 0 and report["bot_cpu_ms"] > 0 and report["bot_iterations"] > 0
