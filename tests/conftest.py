"""Shared test configuration.

Tests that need a real service carry a marker (``postgres``, ``redis``) and are skipped, with the
reason shown by ``-ra``, only when the service's URL is unset. When the URL is set they run and fail
loudly if the service does not answer: CI sets both URLs.
"""

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

SERVICE_URLS = {"postgres": "DATABASE_URL", "redis": "REDIS_URL"}


# No per-example deadline: CI and this 2-core machine run two workers beside PostgreSQL, Redis and
# served sites, and an example that took 250 ms there says nothing about the code (speed lives in
# the benchmarks). The number of examples stays Hypothesis's default.
settings.register_profile("club", deadline=None)
settings.load_profile("club")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", help="engine conformance soak: a million random games")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for marker, variable in SERVICE_URLS.items():
            if item.get_closest_marker(marker) and not os.environ.get(variable):
                item.add_marker(pytest.mark.skip(reason=f"{variable} is not set ({marker} test)"))


@pytest.fixture(scope="session", autouse=True)
def _empty_test_redis() -> None:
    """Start from an empty Redis database (this run's own, see ``durak_site.env.redis_url_for_tests``):
    tasks queued by an earlier run must not reach this run's workers."""
    from django.conf import settings

    if settings.REDIS_URL:
        import redis

        redis.Redis.from_url(settings.REDIS_URL).flushdb()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Every test ends in the site's default language: a test-client request (``LocaleMiddleware``,
    an ``Accept-Language`` header or the language cookie) leaves its language active in the
    worker's thread, and the next test there would otherwise draw its words in it."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test databases, whose teardown first ends this process's other sessions.

    The match sockets run their database work on a thread pool (``play.consumers.pooled``), and
    under channels' test communicators the per-call connection cleanup is switched off, so those
    threads keep their connections: PostgreSQL would refuse to drop a database still in use."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
