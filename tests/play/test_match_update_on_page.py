"""A move's update of its match is a heap-only tuple update on PostgreSQL (migration 0016): no
column a move writes is indexed, and the match table's pages keep room for the row's next
version, so the update adds nothing to the table's seven indexes. ``bench_moves`` under valgrind
counts what that saves PostgreSQL (``docs/performance.md``)."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Match

from .services_support import make_user, play_default, start_match

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

#: What ``turn.commit`` writes at every move.
MOVE_WRITES = ("snapshot", "version", "last_seq", "deadline_at")


def _indexed_columns() -> set[str]:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Match._meta.db_table)
    indexes = (constraint for constraint in constraints.values() if constraint["index"])
    return {column for index in indexes for column in index["columns"]}


def _updates() -> tuple[int, int]:
    """This transaction's updates of the match table so far: all of them and the heap-only ones."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = %s",
            [Match._meta.db_table],
        )
        row = cursor.fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def test_no_column_a_move_writes_is_indexed_and_the_pages_keep_room() -> None:
    columns = {field.column for field in Match._meta.concrete_fields if field.name in MOVE_WRITES}
    assert not columns & _indexed_columns()
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [Match._meta.db_table])
        assert "fillfactor=70" in (cursor.fetchone()[0] or [])


def test_a_moves_update_of_its_match_stays_on_the_rows_page() -> None:
    """Heap-only when the row's page has room: in the tests' shared database a page may be full
    of other tests' rolled-back rows (no vacuum runs between them), and the row's next version then
    moves to a page that has (and, this transaction being open, the versions it leaves are not
    pruned). With the deadline indexed, no update of a move is heap-only."""
    match = start_match(humans=[make_user("a"), make_user("b")])
    before, before_hot = _updates()
    for _ in range(5):
        play_default(match)
    updates, hot = _updates()
    assert updates - before >= 5
    assert hot - before_hot >= 1
