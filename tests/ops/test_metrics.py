"""The Prometheus endpoint: who may scrape it, what a move adds to it, and, under the load test
with several daphnes and a worker, that the moves it counts are the load test's."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from prometheus_client.parser import text_string_to_metric_families

from durak_site import logcontext, metrics
from ops import exposition, signals
from ops.websockets import kind_of
from play import selectors, services
from tests.play.services_support import make_user, start_match
from tests.site.helpers import clean_env, free_port, stop, wait_for_port


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
def test_the_load_tests_moves_are_the_moves_counted_over_every_process(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "prometheus"
    folder.mkdir()
    # The daphnes and the worker the load test starts inherit it (its child_env copies ours).
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(folder))
    series = tmp_path / "series.csv"
    call_command(
        "loadtest", "--json", "--tables", "4", "--duration", "8", "--echo-duration", "1",
        "--think", "0.2", "--daphnes", "2", "--workers", "1", "--series", str(series),
    )  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 0 and report["moves"] > 0

    scraped = _samples(exposition.scrape().decode())  # the endpoint's own exposition of the host
    assert _total(scraped, "durak_moves_applied_total", by="player") == report["moves"]
    with series.open() as rows:
        client_seconds = [float(row["latency_ms"]) / 1000 for row in csv.DictReader(rows)]
    # Every move's frame-to-commit is measured, and the server's part is smaller than what the
    # client saw (which adds the network, the render and the other seat's push).
    assert _total(scraped, "durak_move_frame_to_commit_seconds_count") == report["moves"]
    assert 0 < _total(scraped, "durak_move_frame_to_commit_seconds_sum") < sum(client_seconds)
    assert _total(scraped, "durak_move_commit_to_push_seconds_count") >= report["moves"]
    # The daphnes are gone, so are their sockets.
    assert _total(scraped, "durak_sockets_open") == 0
    assert ("durak_celery_queue_depth", (("queue", "bots"),)) in scraped


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
