"""``durak_site.postgresql``: the connection's health check asks the server only when its socket
says to. A quiet connection passes without a round trip; one the server has ended is found out
and replaced before the request's first statement fails on it; an open transaction gets Django's
own check."""

from __future__ import annotations

import select
from collections.abc import Iterator

import pytest
from django.db import connection, connections
from django.db.backends.postgresql import base as django_postgresql

from durak_site.postgresql.base import DatabaseWrapper

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Every time Django's own check (``SELECT 1``) runs, with what it found."""
    calls: list[bool] = []
    usable = django_postgresql.DatabaseWrapper.is_usable

    def is_usable(self: django_postgresql.DatabaseWrapper) -> bool:
        calls.append(usable(self))
        return calls[-1]

    monkeypatch.setattr(django_postgresql.DatabaseWrapper, "is_usable", is_usable)
    yield calls


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def _wrapper() -> DatabaseWrapper:
    """This thread's connection, as the site's backend."""
    wrapper = connections["default"]
    assert isinstance(wrapper, DatabaseWrapper)
    return wrapper


def _next_request() -> None:
    """What ``close_old_connections`` does to a kept connection between requests (and around every
    ``database_sync_to_async`` call): its next statement is checked first."""
    _wrapper().health_check_done = False


def test_the_site_s_backend_is_this_one() -> None:
    connection.ensure_connection()
    assert _wrapper().health_check_enabled


def test_a_quiet_connection_passes_without_asking_the_server(asked: list[bool]) -> None:
    pid = _backend_pid()
    _next_request()
    assert _backend_pid() == pid
    assert _wrapper().health_check_done
    assert asked == []


def test_a_connection_the_server_ended_is_replaced_before_the_first_statement(asked: list[bool]) -> None:
    pid = _backend_pid()
    admin = connections.create_connection("default")
    try:
        with admin.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        admin.close()
    assert connection.connection is not None
    poller = select.poll()
    poller.register(connection.connection.fileno(), select.POLLIN)
    assert poller.poll(5000), "the server's word that it ended the connection never arrived"
    _next_request()
    assert _backend_pid() != pid  # the first statement ran on a new connection, without an error
    assert asked == [False]


def test_a_connection_in_a_transaction_gets_django_s_own_check(asked: list[bool]) -> None:
    pid = _backend_pid()
    assert connection.connection is not None
    connection.connection.execute("BEGIN")
    try:
        _next_request()
        connection.close_if_health_check_failed()
        assert asked == [True]
    finally:
        connection.connection.execute("ROLLBACK")
    assert _backend_pid() == pid
