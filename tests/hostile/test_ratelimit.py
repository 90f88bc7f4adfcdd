"""``play.ratelimit`` on its own: the token bucket, the per-user window in the cache, doctests."""

from __future__ import annotations

import doctest
import time
import uuid

import pytest
from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings

from durak_site import buckets
from play import ratelimit
from tools import loadclient


def fresh_id() -> int:
    """A user id no other test (or earlier run sharing the cache) has counted."""
    return uuid.uuid4().int % 10**12 + 10**12


def test_the_doctests_hold() -> None:
    for module in (ratelimit, loadclient):
        assert doctest.testmod(module).failed == 0


def test_the_bucket_refills_at_its_rate_and_never_beyond_its_burst() -> None:
    bucket = buckets.TokenBucket(rate=2.0, burst=3, stamp=0.0)
    assert [bucket.take(now=0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(now=0.5) and not bucket.take(now=0.5)
    assert [bucket.take(now=100.0) for _ in range(4)] == [True, True, True, False]


@override_settings(GAMES_USER_RATE=(3, 60))
def test_the_user_window_counts_per_user_and_resets_with_the_window() -> None:
    first, second = fresh_id(), fresh_id()
    assert [ratelimit.user_allows(first, now=0.0) for _ in range(4)] == [True, True, True, False]
    assert ratelimit.user_allows(second, now=0.0)
    assert ratelimit.user_allows(first, now=61.0)


@pytest.mark.redis
@override_settings(GAMES_USER_RATE=(3, 60))
def test_the_user_window_is_shared_through_redis() -> None:
    from django.conf import settings

    assert "Redis" in settings.CACHES["default"]["BACKEND"]
    user = fresh_id()
    assert [ratelimit.user_allows(user, now=0.0) for _ in range(4)] == [True, True, True, False]
    assert cache.get(f"games:frames:{user}:0") == 4


@pytest.mark.redis
@override_settings(GAMES_USER_RATE=(3, 60))
def test_a_user_window_expires_with_its_window() -> None:
    """The counter is an ordinary cache entry with the window's expiry (set by its first frame,
    left alone by the others): Redis forgets it a second after the window ends."""
    user, now = fresh_id(), time.time()  # one window for both frames, whenever the minute turns
    ratelimit.user_allows(user, now=now)
    backend = caches[DEFAULT_CACHE_ALIAS]
    assert isinstance(backend, RedisCache)
    key = backend.make_and_validate_key(f"games:frames:{user}:{int(now // 60)}")
    client = backend._cache.get_client(key)
    first = client.ttl(key)
    ratelimit.user_allows(user, now=now)
    assert 0 < client.ttl(key) <= first <= 61
