"""The Prometheus endpoint: who may scrape it, what a move adds to it, and, under the load test
with several daphnes and a worker, that the moves it counts are the load test's."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db.models import Count
from django.test import Client, override_settings
from prometheus_client.parser import text_string_to_metric_families

from durak_site import logcontext, metrics
from games import bots
from games.bots.ismcts import Decision
from games.models import Move
from ops import exposition, signals
from ops.websockets import kind_of
from play import selectors, services
from tests.play.services_support import bot_to_move, make_user, start_match
from tests.site.helpers import clean_env, free_port, stop, wait_for_port
from tools import scrape


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape by name and labels, parsed by prometheus-client's own parser."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _total(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return sum(
        value
        for (sample, sample_labels), value in samples.items()
        if sample == name and set(labels.items()) <= set(sample_labels)
    )


@pytest.mark.django_db
def test_the_scrape_is_refused_to_the_public_and_served_with_the_token(client: Client) -> None:
    # No token configured: only a request straight from this host, not one through a proxy.
    assert client.get("/ops/metrics").status_code == 200
    assert client.get("/ops/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 404
    assert client.get("/ops/metrics", REMOTE_ADDR="203.0.113.9").status_code == 404
    with override_settings(OPS_METRICS_TOKEN="s3cret-token"):
        assert client.get("/ops/metrics").status_code == 404
        assert client.get("/ops/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
        response = client.get(
            "/ops/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer s3cret-token"
        )
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/plain")


@pytest.mark.django_db
def test_a_committed_move_is_counted_by_variant_and_a_refused_one_is_not(
    django_capture_on_commit_callbacks: pytest.FixtureRequest,
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob])
    before = _samples(exposition.scrape().decode())
    loaded = selectors.match_load(match_id=match.pk)
    assert loaded is not None
    seat = min(loaded.state.awaiting())
    mover = alice if seat == 0 else bob
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        with pytest.raises(services.GameError):
            services.action_apply(match_id=match.pk, user=mover, action_text="take", expected_version=99)
        services.action_apply(
            match_id=match.pk,
            user=mover,
            action_text=str(loaded.state.default_action(seat)),
            expected_version=match.version,
        )
    after = _samples(exposition.scrape().decode())
    counted = "durak_moves_applied_total"
    assert (
        _total(after, counted, variant="podkidnoy", by="player")
        - _total(before, counted, variant="podkidnoy", by="player")
        == 1
    )
    assert _total(after, "durak_matches_in_play") == 1  # read from the database at scrape time


@pytest.mark.django_db
def test_a_searched_decisions_iterations_are_recorded_by_level(monkeypatch: pytest.MonkeyPatch) -> None:
    match, seat = bot_to_move()  # an easy bot's turn, made to search for the test
    monkeypatch.setitem(
        bots.SEARCHING, "easy", lambda view, legal, seed, **kw: Decision(legal[0], iterations=123)
    )
    before = _samples(exposition.scrape().decode())
    assert services.bot_turn(match_id=match.pk, version=match.version, seat=seat) is True
    after = _samples(exposition.scrape().decode())
    for name, grew in (("durak_bot_iterations_count", 1), ("durak_bot_iterations_sum", 123)):
        assert _total(after, name, level="easy") - _total(before, name, level="easy") == grew


def test_http_responses_are_counted_by_status(client: Client) -> None:
    before = metrics.HTTP_RESPONSES.labels("200")._value.get()
    client.get("/ops/health/live")
    assert metrics.HTTP_RESPONSES.labels("200")._value.get() == before + 1


def test_socket_kinds_are_a_closed_set() -> None:
    assert kind_of("/ws/chat/3/") == "chat"
    assert kind_of("/ws/" + "x" * 50 + "/") == "other"


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_scrape_during_the_load_test_counts_its_moves_and_times_them_inside_the_clients(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``loadtest --metrics`` scrapes a daphne's ``/ops/metrics`` over HTTP before and after the
    play, with two daphnes and a worker summing into one folder. Every move the scripted players
    made is counted as a player's; the clock's (a throw-in window closed while a player thought)
    are counted apart, and the database's move log says exactly the same. Each move's server time
    lies inside the latency its client measured, so in the same buckets the server's mean and
    p99 are the smaller."""
    folder = tmp_path / "prometheus"
    folder.mkdir()
    # The stack inherits it (else the command makes a folder of its own), so it can be read after.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(folder))
    call_command(
        "loadtest", "--json", "--metrics", "--tables", "4", "--duration", "8", "--echo-duration", "1",
        "--think", "0.2", "--daphnes", "2", "--workers", "1",
    )  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 0 and report["moves"] > 0
    server = report["metrics"]

    assert server["moves"].get("player") == report["moves"]
    logged = dict(Move.objects.values_list("by").annotate(count=Count("pk")))  # this run's alone
    assert server["moves"] == logged
    commit, client = server["frame_to_commit"], server["client"]
    assert commit["count"] == client["count"] == report["moves"]
    assert 0 < commit["mean_ms"] <= client["mean_ms"]
    assert commit["p50_ms"] <= client["p50_ms"] and commit["p99_ms"] <= client["p99_ms"]
    # One push to the other seat per move (both seats' for the clock's).
    assert server["commit_to_push"]["count"] >= report["moves"]

    scraped = _samples(exposition.scrape().decode())  # the folder, read after the stack stopped
    assert _total(scraped, "durak_sockets_open") == 0  # the daphnes are gone, so are their sockets
    assert ("durak_celery_queue_depth", (("queue", "bots"),)) in scraped


def test_quantiles_are_estimated_from_buckets_as_prometheus_does() -> None:
    bounds = [0.01, 0.1, math.inf]
    assert scrape.quantile(scrape.bucketed([0.005] * 50 + [0.05] * 50, bounds), 0.75) == pytest.approx(0.055)
    assert scrape.quantile(scrape.bucketed([5.0], bounds), 0.99) == 0.1  # beyond the last bound
    assert scrape.quantile(scrape.bucketed([], bounds), 0.99) == 0.0
    # Each value no larger than its partner's: no larger an estimate.
    smaller, larger = [0.004, 0.02, 0.03, 0.2], [0.009, 0.09, 0.031, 0.5]
    for q in (0.5, 0.99):
        assert scrape.quantile(scrape.bucketed(smaller, bounds), q) <= scrape.quantile(
            scrape.bucketed(larger, bounds), q
        )


def test_the_load_test_measures_the_server_only_without_a_flood() -> None:
    with pytest.raises(CommandError, match="--metrics measures a run without --flood"):
        call_command("loadtest", "--metrics", "--flood", "streams")


def test_the_moves_between_two_scrapes_are_counted_by_whom() -> None:
    before = scrape.parse('durak_moves_applied_total{variant="podkidnoy",by="player"} 5\n')
    after = scrape.parse(
        'durak_moves_applied_total{variant="podkidnoy",by="player"} 9\n'
        'durak_moves_applied_total{variant="perevodnoy",by="player"} 1\n'
        'durak_moves_applied_total{variant="podkidnoy",by="timeout"} 2\n'
    )
    assert scrape.moves_by(before, after) == {"player": 5, "timeout": 2}


def test_a_worker_hosts_exporter_answers_only_with_the_token(tmp_path: Path) -> None:
    port = free_port()
    env = clean_env(OPS_METRICS_TOKEN="worker-host-token", PROMETHEUS_MULTIPROC_DIR=str(tmp_path))
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve_metrics", "--port", str(port)],
        cwd=settings.BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        wait_for_port(port, process, timeout=60)
        url = f"http://127.0.0.1:{port}/metrics"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url, timeout=10)
        assert refused.value.code == 404
        asked = urllib.request.Request(url, headers={"Authorization": "Bearer worker-host-token"})
        with urllib.request.urlopen(asked, timeout=10) as response:
            text = response.read().decode()
        names = {family.name for family in text_string_to_metric_families(text)}
        assert "durak_matches_in_play" not in names  # the web hosts report the site-wide ones
    finally:
        stop(process)


def test_a_tasks_run_time_is_measured_under_its_queue() -> None:
    task = SimpleNamespace(
        name="games.bot_turn", request=SimpleNamespace(delivery_info={"routing_key": "bots"})
    )
    before = _total(
        _samples(exposition.scrape(site_wide=False).decode()), "durak_celery_task_seconds_count", queue="bots"
    )
    signals.task_started(task_id="t-1", task=task)  # type: ignore[arg-type]
    assert logcontext.request_id.get() == "t-1"  # the task's log lines carry its id
    signals.task_finished(task_id="t-1", task=task)  # type: ignore[arg-type]
    after = _total(
        _samples(exposition.scrape(site_wide=False).decode()), "durak_celery_task_seconds_count", queue="bots"
    )
    assert after == before + 1
