"""The database pool: production bounds each process's PostgreSQL connections with Django's pool
(``DATABASE_POOL_MAX_SIZE``), development keeps its defaults; the pool checks a quiet connection
without a round trip (``durak_site.postgresql``); a request that finds the pool empty for
``DATABASE_POOL_TIMEOUT`` gets a 503 with ``Retry-After``, not a 500 (``durak_site.busy``)."""

from __future__ import annotations

import copy
import json
import select
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import RequestFactory
from psycopg_pool import ConnectionPool

from durak_site.busy import PoolBusyMiddleware, pool_timed_out
from durak_site.postgresql.base import DatabaseWrapper

from .helpers import clean_env, run_python
from .test_settings_matrix import PRODUCTION_ENV

PROBE = """
import json, django
django.setup()
from django.conf import settings as s
db = s.DATABASES["default"]
pool = db.get("OPTIONS", {}).get("pool")
print(json.dumps({"engine": db["ENGINE"], "max_age": db["CONN_MAX_AGE"], "pool": pool}))
"""
POSTGRES = "postgres://postgres@127.0.0.1:5432/durak"


def probe(**env: str) -> tuple[int, dict[str, Any] | str]:
    result = run_python(PROBE, clean_env(**env))
    if result.returncode:
        return result.returncode, result.stderr
    values: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return 0, values


def test_production_on_postgresql_has_a_bounded_pool_and_no_kept_connections() -> None:
    assert probe(**PRODUCTION_ENV, DATABASE_URL=POSTGRES) == (
        0,
        {
            "engine": "durak_site.postgresql",
            "max_age": 0,
            "pool": {"min_size": 2, "max_size": 10, "timeout": 10.0},
        },
    )
    tuned = probe(
        **PRODUCTION_ENV, DATABASE_URL=POSTGRES, DATABASE_POOL_MAX_SIZE="4", DATABASE_POOL_TIMEOUT="3"
    )
    assert tuned[1]["pool"] == {"min_size": 2, "max_size": 4, "timeout": 3.0}  # type: ignore[index]


def test_without_the_pool_conn_max_age_applies_and_with_it_is_refused() -> None:
    unpooled = probe(
        **PRODUCTION_ENV, DATABASE_URL=POSTGRES, DATABASE_POOL_MAX_SIZE="0", DATABASE_CONN_MAX_AGE="60"
    )
    assert unpooled == (0, {"engine": "durak_site.postgresql", "max_age": 60, "pool": None})
    code, error = probe(**PRODUCTION_ENV, DATABASE_URL=POSTGRES, DATABASE_CONN_MAX_AGE="60")
    assert code and "DATABASE_CONN_MAX_AGE" in str(error) and "DATABASE_POOL_MAX_SIZE=0" in str(error)


def test_development_keeps_its_defaults() -> None:
    assert probe(DATABASE_URL=POSTGRES) == (
        0,
        {"engine": "durak_site.postgresql", "max_age": 0, "pool": None},
    )
    code, sqlite = probe()
    assert code == 0 and isinstance(sqlite, dict)
    assert sqlite["engine"] == "django.db.backends.sqlite3" and sqlite["pool"] is None


@pytest.fixture
def pooled(transactional_db: None) -> Iterator[Callable[[], DatabaseWrapper]]:
    """Wrappers of the test database through a pool of one connection, waited on for 0.2 s."""
    if connection.vendor != "postgresql":
        pytest.skip("the pool is PostgreSQL's")
    settings_dict = copy.deepcopy(connection.settings_dict)
    settings_dict["CONN_MAX_AGE"] = 0
    settings_dict["OPTIONS"]["pool"] = {"min_size": 1, "max_size": 1, "timeout": 0.2}

    class Pooled(DatabaseWrapper):
        def __init__(self) -> None:
            super().__init__(copy.deepcopy(settings_dict), alias="pool-test")

    try:
        yield Pooled
    finally:
        Pooled().close_pool()


def _pid(wrapper: DatabaseWrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.postgres
def test_the_pool_checks_a_quiet_connection_without_a_round_trip(
    pooled: Callable[[], DatabaseWrapper], monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[object] = []
    own_check = ConnectionPool.check_connection

    def check(conn: Any) -> None:
        checked.append(conn)
        own_check(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(check))
    wrapper = pooled()
    first = _pid(wrapper)
    kept = wrapper.connection
    assert kept is not None
    wrapper.close()  # back to the pool, still open
    assert _pid(wrapper) == first and checked == []  # the same connection, no round trip
    wrapper.close()
    with connection.cursor() as cursor:  # the server ends it (a restart, an administrator)
        cursor.execute("SELECT pg_terminate_backend(%s)", [first])
    assert select.select([kept.pgconn.socket], [], [], 10)[0], "the server said nothing"
    assert _pid(wrapper) != first and len(checked) == 1  # found out before the first statement
    wrapper.close()


@pytest.mark.postgres
def test_a_request_that_finds_the_pool_empty_gets_503(pooled: Callable[[], DatabaseWrapper]) -> None:
    holder, waiter = pooled(), pooled()
    holder.ensure_connection()  # the pool's only connection
    try:
        with pytest.raises(OperationalError) as raised:
            waiter.ensure_connection()
    finally:
        holder.close()
    assert pool_timed_out(raised.value)
    request = RequestFactory().get("/play/")
    response = PoolBusyMiddleware(lambda request: None).process_exception(request, raised.value)  # type: ignore[arg-type]
    assert response is not None and response.status_code == 503 and response["Retry-After"] == "5"
    api = PoolBusyMiddleware(lambda request: None).process_exception(  # type: ignore[arg-type]
        RequestFactory().get("/api/stream/event"), raised.value
    )
    assert api is not None and api.status_code == 503 and json.loads(api.content)["code"] == "busy"
    waiter.ensure_connection()  # the connection is back: the next request gets it
    waiter.close()


def test_any_other_database_error_stays_an_error() -> None:
    assert not pool_timed_out(OperationalError("server closed the connection unexpectedly"))
    response = PoolBusyMiddleware(lambda request: None).process_exception(  # type: ignore[arg-type]
        RequestFactory().get("/"), OperationalError("no")
    )
    assert response is None
