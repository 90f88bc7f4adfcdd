"""Shared test configuration.

Tests that need a real service carry a marker (``postgres``, ``redis``) and are skipped, with the
reason shown by ``-ra``, only when the service's URL is unset. When the URL is set they run and fail
loudly if the service does not answer: CI sets both URLs.
"""

import os

import pytest

SERVICE_URLS = {"postgres": "DATABASE_URL", "redis": "REDIS_URL"}


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
