"""Typed readers for environment variables.

Settings read everything through these helpers so that every variable has one place where its
spelling, type and default live; README.md lists them all.
"""

import os
import secrets
from urllib.parse import urlsplit, urlunsplit

from redis.connection import parse_url

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    """The variable's value, or ``default`` when it is unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """A boolean flag; refuses values that are neither truthy nor falsy so typos do not pass."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_int(name: str, default: int) -> int:
    """An integer; an empty value means the default."""
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


def env_pair(name: str, default: tuple[float, float]) -> tuple[float, float]:
    """Two comma-separated numbers such as ``0.6,1.2``; unset or empty means the default."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    parts = [part.strip() for part in raw.split(",")]
    if len(parts) != 2:
        raise ValueError(f"{name}={raw!r} is not two comma-separated numbers")
    return float(parts[0]), float(parts[1])


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list with blanks dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def redis_url_for_tests(url: str) -> str:
    """Give a test run its own Redis database number, so it never meets the site's data or another
    run's: parallel pytest-xdist workers (``PYTEST_XDIST_WORKER`` = gw0, gw1, ...) share one Redis,
    and without this a channel group or a queued Celery task of one worker's test database would
    reach the other's sockets and workers. Outside pytest (no ``PYTEST_VERSION``) the URL is unchanged.

    """
    if not url or not os.environ.get("PYTEST_VERSION"):
        return url
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    number = 1 + (int(worker) if worker.isdigit() else 0) % 15
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{number}"))


def channel_layer_prefix(redis_url: str) -> str:
    """The prefix of the pub/sub channel layer's Redis channel names, e.g. ``durak.0.``.

    Redis pub/sub ignores database numbers: a ``PUBLISH`` reaches every subscriber of that name on
    the server. The database number of ``REDIS_URL`` keeps two sites on one Redis apart for the
    cache and Celery, so it goes into the prefix to keep their broadcasts apart too. Under pytest
    the prefix also carries a token of this process: parallel xdist workers and concurrent runs
    (which may share a database number, see ``redis_url_for_tests``) never share a group. A site
    process started by a test is not under pytest (its environment drops pytest's variables).
    """
    database = parse_url(redis_url).get("db") or 0  # type: ignore[no-untyped-call]
    prefix = f"durak.{database}."
    if os.environ.get("PYTEST_VERSION"):
        prefix += f"test-{secrets.token_hex(4)}."
    return prefix
