"""Django's PostgreSQL backend, whose health check asks the server only when its socket says to.

Why: with persistent connections and ``CONN_HEALTH_CHECKS`` (``durak_site.settings``), Django sends
``SELECT 1`` before the first statement of every request, and of every ``database_sync_to_async``
call, which closes stale connections around itself: two more round trips a move (the mover's call
and the other seat's push), about 150 µs of CPU each in the process and the server together
(``docs/performance.md``). The check exists for a connection that the server has ended
(a restart, an administrator's ``pg_terminate_backend``, ``idle_session_timeout``): so as not to
fail the request's first statement on it. A server ending a connection says so on it, an error
message and then the end of the stream, so the idle connection's socket becomes readable; and an
idle connection in good health has nothing to read, since psycopg reads every reply to the end.
So a connection that psycopg holds usable, idle outside a transaction, with nothing waiting on its
socket, passes without a round trip; anything else (data waiting, a broken or closed connection,
a transaction left open) gets Django's own check, which closes the connection if ``SELECT 1``
fails. A connection that went silent without a word from the server (a cable pulled) hangs on the
request's first statement as it would have hung on ``SELECT 1``.

Django's check after an error (``close_if_unusable_or_obsolete`` calling ``is_usable``) is left
as it is: there the connection may be in any state.

With the pool (``DATABASE_POOL_MAX_SIZE``) Django leaves the health check to the pool, whose own
check (``ConnectionPool.check_connection``) is a round trip on every connection it hands out:
every request, task and socket call. The pool gets the same test instead (``check_quietly``).
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base
from psycopg import Connection, pq
from psycopg_pool import ConnectionPool


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's, but for the health check before a request's first statement (``_quiet``)."""

    # Django's (django-stubs leave them out).
    health_check_enabled: bool
    health_check_done: bool
    _connection_pools: dict[str, ConnectionPool[Any]]

    @property
    def pool(self) -> ConnectionPool[Any] | None:
        """Django's pool, made with ``check_quietly`` as its health check."""
        options = self.settings_dict["OPTIONS"].get("pool")
        if options and self.settings_dict["CONN_HEALTH_CHECKS"] and self.alias not in self._connection_pools:
            self.settings_dict["OPTIONS"]["pool"] = {
                "check": check_quietly,
                **(options if isinstance(options, dict) else {}),
            }
        return super().pool  # type: ignore[no-any-return]

    def close_if_health_check_failed(self) -> None:
        if (
            not self.pool
            and self.health_check_enabled
            and not self.health_check_done
            and self.connection is not None
            and _quiet(self.connection)
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()


def _quiet(connection: Connection[Any]) -> bool:
    """Whether the driver's connection is usable, idle, and has nothing to read on its socket."""
    pgconn = connection.pgconn
    if (
        connection.broken
        or pgconn.status != pq.ConnStatus.OK
        or pgconn.transaction_status != pq.TransactionStatus.IDLE
    ):
        return False
    poller = select.poll()  # not select.select: a busy daphne's descriptors pass 1024
    poller.register(pgconn.socket, select.POLLIN)
    return not poller.poll(0)


def check_quietly(connection: Connection[Any]) -> None:
    """The pool's health check: nothing for a connection that is quiet, else the pool's own."""
    if not _quiet(connection):
        ConnectionPool.check_connection(connection)
