"""``durak_site.db.prepared_cursor``: every move's statements are prepared on PostgreSQL once per
connection, while Django's own cursors stay client-bound (never prepared); the prepared ones are
still seen by Django's execute wrappers and query counts, and read what the ORM reads."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from durak_site.db import prepared_cursor
from games.models import Match, MatchPlayer, Move
from play import selectors

from ..play.services_support import bot_to_move

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _prepared() -> list[str]:
    """The statements prepared on this connection (what the server holds, by its own view)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.django_db(transaction=True)  # its own connection, opened afresh
def test_a_push_s_read_is_prepared_and_the_orm_s_queries_are_not() -> None:
    match, _seat = bot_to_move()
    connection.close()  # a connection of its own: nothing prepared on it yet
    assert _prepared() == []
    Match.objects.filter(pk=match.pk).exists()
    for _ in range(2):
        loaded = selectors.match_load(match_id=match.pk, moves_after=0)
        assert loaded is not None
    prepared = _prepared()
    assert len(prepared) == 2  # the match with its table and players, the log lines: once each
    tables = sorted(sql.split(" FROM ")[1].split()[0] for sql in prepared)
    assert tables == [Match._meta.db_table, Move._meta.db_table]
    assert any(f"JOIN {MatchPlayer._meta.db_table} " in sql for sql in prepared)
    assert not any("LIMIT 1" in sql.upper() for sql in prepared)  # the ORM's exists() query


def test_prepared_statements_are_counted_and_read_what_the_orm_reads() -> None:
    match, _seat = bot_to_move()
    with CaptureQueriesContext(connection) as queries:
        loaded = selectors.match_load(match_id=match.pk, moves_after=0)
    assert loaded is not None
    assert len(queries) == 2
    fresh = Match.objects.select_related("table").get(pk=match.pk)
    assert loaded.match.deadline_at == fresh.deadline_at and loaded.match.deadline_at is not None
    assert loaded.match.deadline_at.tzinfo is not None
    assert loaded.match.snapshot == fresh.snapshot
    assert loaded.match.table.rules == fresh.table.rules
    assert [p.user.username for p in loaded.players] == [
        p.user.username for p in fresh.players.select_related("user").order_by("seat")
    ]


def test_the_cursor_binds_on_the_server_and_django_s_on_the_client() -> None:
    import psycopg

    with prepared_cursor() as cursor:
        assert type(cursor.cursor) is psycopg.Cursor
    with connection.cursor() as cursor:
        assert isinstance(cursor.cursor, psycopg.ClientCursor)
