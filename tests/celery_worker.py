"""A real Celery worker thread for end-to-end tests, on a queue of its own (every task, bot
turns included, is routed there for the block).

Its own queue, so no other worker on a shared broker (another test run, a developer's worker)
takes these tasks; no human-like bot delay, so bots answer at once; and the queue is purged and
deleted afterwards, so the deadlines still pending do not reach a later run.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from celery.contrib.testing.worker import start_worker
from django.test import override_settings

from durak_site.celery import app


@contextmanager
def celery_worker_on_own_queue(prefix: str) -> Iterator[None]:
    """Run a worker thread on a fresh queue ``<prefix>-<random>`` made the default for the block."""
    queue = f"{prefix}-{uuid.uuid4().hex}"
    default_queue, routes = app.conf.task_default_queue, app.conf.task_routes
    app.conf.task_default_queue = queue
    _route_everything_to(queue)
    try:
        with (
            override_settings(GAMES_BOT_DELAY=(0.0, 0.0)),
            start_worker(app, perform_ping_check=False, queues=[queue], shutdown_timeout=30),
        ):
            yield
    finally:
        app.conf.task_default_queue = default_queue
        app.conf.task_routes = routes
        _reload_routes()
        with app.connection_for_write() as conn:
            # celery-types: default_channel is the abstract StdChannel, without the queue methods
            conn.default_channel.queue_purge(queue)  # type: ignore[attr-defined]
            conn.default_channel.queue_delete(queue)  # type: ignore[attr-defined]


def _route_everything_to(queue: str) -> None:
    """Send the tasks the settings route elsewhere (bot turns go to ``bots``) to ``queue`` too."""
    app.conf.task_routes = {name: {"queue": queue} for name in app.conf.task_routes or {}}
    _reload_routes()


def _reload_routes() -> None:
    """Celery caches its router: build it again from ``task_routes``."""
    app.amqp.flush_routes()
    app.amqp.router = app.amqp.Router()  # type: ignore[misc]  # a cached_property; celery-types: property
