"""Liveness and readiness: in this process on the test run's settings, and against a real stack
(daphne, a Celery worker and beat) whose PostgreSQL and Redis the test stops and starts again."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from durak_site import heartbeat
from ops import health
from tests.faults.stack import Stack
from tests.ops.postgres import PostgresServer

OUTCOMES = {"ok", "fail", "skipped"}


@pytest.fixture(autouse=True)
def _fresh_answers() -> Iterator[None]:
    health._memo.clear()
    yield
    health._memo.clear()


def test_liveness_answers_without_touching_the_database(client: Client) -> None:
    # No django_db mark: any query would raise.
    response = client.get("/ops/health/live")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readiness_says_only_ok_fail_or_skipped_per_check(client: Client) -> None:
    response = client.get("/ops/health/ready")
    body = response.json()
    assert set(body) == {"status", "checks"}
    assert set(body["checks"]) == {
        "database",
        "cache",
        "channel_layer",
        "broker",
        "clock",
        "queue:celery",
        "queue:bots",
        "queue:reviews",
    }
    assert set(body["checks"].values()) <= OUTCOMES
    assert body["checks"]["database"] == body["checks"]["cache"] == "ok"
    if not settings.REDIS_URL:  # the embedded defaults: no Redis, no broker to reach
        assert body["checks"]["channel_layer"] == body["checks"]["broker"] == "skipped"


@pytest.mark.django_db
def test_readiness_fails_without_heartbeats_and_passes_with_fresh_ones(client: Client) -> None:
    for name in ("clock", "queue:celery", "queue:bots", "queue:reviews"):
        cache.delete(f"heartbeat:{name}")
    response = client.get("/ops/health/ready")
    assert response.status_code == 503
    assert response.json()["checks"]["clock"] == "fail"
    # What a load balancer asks: a page needs no worker right now.
    assert client.get("/ops/health/ready?web").status_code == 200

    for name in ("clock", "queue:celery", "queue:bots", "queue:reviews"):
        heartbeat.beat(name)
    health._memo.clear()
    response = client.get("/ops/health/ready")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "ok"


def test_a_stale_heartbeat_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heartbeat, "age", lambda name: health.CLOCK_SECONDS + 1)
    assert health.fresh("clock", health.CLOCK_SECONDS) == "fail"


# --- against real processes ---------------------------------------------------------------------


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _until(
    port: int, wanted: Callable[[int, dict[str, Any]], bool], what: str, bound: float = 120
) -> dict[str, Any]:
    """Ask readiness until ``wanted(status, checks)`` holds (a generous bound, no fixed sleep)."""
    deadline = time.monotonic() + bound
    seen: tuple[int, str] = (0, "")
    while time.monotonic() < deadline:
        seen = _get(port, "/ops/health/ready")
        body = json.loads(seen[1])
        if wanted(seen[0], body["checks"]):
            return {"status_code": seen[0], **body}
        time.sleep(0.5)
    raise AssertionError(f"readiness never showed {what}: {seen}")


@pytest.fixture
def private_stack(tmp_path: Path) -> Iterator[tuple[Stack, PostgresServer]]:
    postgres = PostgresServer()
    stack: Stack | None = None
    try:
        postgres.start()
        stack = Stack(tmp_path)
        stack.env["DATABASE_URL"] = postgres.url
        stack.env.pop("SQLITE_PATH", None)
        yield stack, postgres
    finally:
        if stack is not None:
            stack.close()
        postgres.close()


@pytest.mark.slow
def test_readiness_follows_postgres_and_redis_stopped_and_started_again(
    private_stack: tuple[Stack, PostgresServer],
) -> None:
    stack, postgres = private_stack
    port = stack.daphne("web")
    stack.worker("worker")  # every queue
    stack.beat()
    everything = _until(port, lambda status, checks: status == 200, "everything ready")
    assert set(everything["checks"].values()) == {"ok"}

    postgres.stop()
    down = _until(port, lambda s, c: c["database"] == "fail", "the database down")
    assert down["status_code"] == 503 and down["status"] == "fail"
    assert down["checks"]["cache"] == down["checks"]["broker"] == "ok"
    postgres.start()
    _until(port, lambda s, c: s == 200 and c["database"] == "ok", "the database back")

    stack.redis.stop()
    down = _until(
        port,
        lambda s, c: c["cache"] == c["channel_layer"] == c["broker"] == "fail",
        "Redis down",
    )
    assert down["status_code"] == 503 and down["checks"]["database"] == "ok"
    _, text = _get(port, "/ops/health/ready")
    for internal in (str(stack.redis.port), str(postgres.port), "127.0.0.1", "Error", "refused"):
        assert internal not in text
    stack.redis.start()  # empty, on its old port: the heartbeats must come back by themselves
    back = _until(port, lambda s, c: s == 200, "Redis back, with beat's clock and every queue's worker")
    assert set(back["checks"].values()) == {"ok"}
