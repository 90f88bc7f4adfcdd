import pytest
from django.core.cache import cache

from accounts.models import User


@pytest.fixture(autouse=True)
def _fast_hashing_and_fresh_rate_limits(settings: object) -> None:
    """A cheap hasher keeps the flows fast; a private, empty cache resets allauth's rate limits.

    Rate-limit counters live in the cache, keyed by client address: a per-process memory cache keeps
    parallel test workers (which share Redis and 127.0.0.1) from counting each other's attempts.
    """
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}  # type: ignore[attr-defined]
    cache.clear()


PASSWORD = "a-long-card-table-password"


@pytest.fixture
def player(db: None) -> User:
    from allauth.account.models import EmailAddress

    user = User.objects.create_user(
        username="vasya", email="vasya@example.com", password=PASSWORD, display_name="Vasya"
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user
