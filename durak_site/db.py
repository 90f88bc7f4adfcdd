"""A cursor for the site's hottest statements, which PostgreSQL plans once per connection.

Why: every move runs the same handful of hand-written statements (the match's locked read, its
players, the move's insert, the match's update, the other seats' read: ``play.selectors``
and ``play.services.rows``), and PostgreSQL spent about half of its time on each in parsing
and planning it again (``docs/performance.md``). psycopg prepares a statement on the server
when it is sent with server-side binding on a connection whose ``prepare_threshold`` is set, and
then sends only its name and parameters. Django's own cursors bind on the client (the default,
kept: some ORM queries are not valid with server-side binding), and a client-binding cursor never
prepares, so the ``prepare_threshold`` in ``DATABASES`` touches only the statements sent through
``prepared_cursor``.

The cursor is wrapped as Django wraps its own (``connection.cursor``): execute wrappers, query
logging, the health check, thread checks and error translation all apply. Elsewhere than on
PostgreSQL it is the connection's ordinary cursor.

``default_connection()`` is the thread's connection itself rather than ``django.db.connection``:
that is a proxy, which finds the thread's connection anew (through asgiref's context-local
storage) at every attribute read, and a move's statements read a few dozen attributes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.db.backends.utils import CursorWrapper
from psycopg.pq import Format

_TIMESTAMPTZ = psycopg.adapters.types["timestamptz"].oid


def default_connection() -> BaseDatabaseWrapper:
    """The default database's connection of this thread (what ``django.db.connection`` stands for)."""
    return connections[DEFAULT_DB_ALIAS]


@contextmanager
def prepared_cursor() -> Iterator[CursorWrapper]:
    """A cursor of the default connection whose statements are prepared on PostgreSQL.

    For statements whose text is fixed (their values passed as parameters only), run often: each
    distinct text is a prepared statement of the connection (psycopg keeps the 100 used last)."""
    connection = default_connection()
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            yield cursor
        return
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        raw = psycopg.Cursor(connection.connection)
        # As Django's own cursors: the connection's time zone when it changed since it connected.
        loader = connection.connection.adapters.get_loader(_TIMESTAMPTZ, Format.TEXT)
        if loader.timezone != connection.timezone:
            register_tzloader(connection.timezone, raw)
    # django-stubs type these as taking a wrapper; Django passes them the driver's cursor.
    wrap = connection.make_debug_cursor if connection.queries_logged else connection.make_cursor
    wrapped = wrap(raw)  # type: ignore[arg-type]
    with wrapped:
        yield wrapped
