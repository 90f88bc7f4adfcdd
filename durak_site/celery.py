"""The Celery app: bot turns and turn deadlines run as its tasks (later issues).

Configured from Django settings (``CELERY_*``). In the embedded mode the broker is ``memory://`` and
the worker is a thread of the serving process (``durak_site.embedded_worker``); with ``REDIS_URL``
run ``celery -A durak_site worker`` and ``celery -A durak_site beat`` as separate processes.

A Redis broker goes through ``RedisTransport`` below, so that a worker lives through a Redis
restart (see ``RedisChannel``).
"""

import logging
import os
from contextlib import suppress
from queue import Empty
from typing import Any
from urllib.parse import urlsplit

from celery import Celery, Task, bootsteps, signals
from django.db import close_old_connections
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

logger = logging.getLogger(__name__)

app = Celery("durak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: Periodic jobs for ``celery beat`` (and the embedded beat thread). The clock plays every turn
#: deadline that ran out: the deadlines live in the database, with no task of their own
#: (``play.services.turn``); the announce re-sends each match's version, in case a process
#: died between a move's commit and its broadcast.
app.conf.beat_schedule = {
    # A tick the worker could not take within a second is dropped: the next one does its work.
    "games-clock": {"task": "games.clock", "schedule": 0.5, "options": {"expires": 1.0}},
    "games-matches-announce": {"task": "games.matches_announce", "schedule": 60.0},
    # Tables nobody joined are closed; the lobby hears of hosts gone away (play.services.limits).
    "games-tables-sweep": {"task": "games.tables_sweep", "schedule": 60.0},
    # Registration deadlines, start times and stuck tournament games.
    "tournaments-tick": {"task": "tournaments.tick", "schedule": 30.0},
    # Quick pairing: widened rating ranges meet, and unanswered challenges expire.
    "pairing-tick": {"task": "pairing.tick", "schedule": 5.0},
    # Game reviews whose chain of steps was lost (a worker died mid-step) are resumed.
    "history-reviews-sweep": {"task": "history.reviews_sweep", "schedule": 60.0},
    # The puzzle miner reads the next batch of finished matches past its cursor.
    "puzzles-mine": {"task": "puzzles.mine", "schedule": 300.0, "options": {"queue": "reviews"}},
    # A ping to each queue: its worker's heartbeat, which readiness asks for (ops.health).
    **{
        f"ops-ping-{queue}": {
            "task": "ops.ping",
            "schedule": 15.0,
            "args": (queue,),
            "options": {"queue": queue, "expires": 15.0},
        }
        for queue in ("celery", "bots", "reviews")
    },
}


@signals.task_prerun.connect
@signals.task_postrun.connect
def close_old_connections_around_tasks(sender: Task[..., Any] | None = None, **kwargs: Any) -> None:
    """Before and after every task, what Django does before and after every request: close the
    connections that are past ``CONN_MAX_AGE`` or unusable, keep the others. With the pool
    (``DATABASE_POOL_MAX_SIZE``, production's default) "close" gives the connection back to the
    process's pool, still open, and the next task takes it again: no task connects anew, and the
    worker holds no more connections than its pool's size.

    Why: Celery's Django fixup closes every connection before and after every task unless
    ``CELERY_DB_REUSE_MAX`` is set (``durak_site.settings`` sets it), so each task opened a new
    PostgreSQL connection: a server process forked, authenticated and configured, every
    statement prepared again. Beat's clock alone is two tasks a second, and a task playing a
    match spent a third of its time connecting (``docs/performance.md``). A connection
    the server has ended is found by the health check before a task's first statement
    (``durak_site.postgresql``); one a task left inside a transaction is closed here. A task
    run eagerly runs inside its caller's request and transaction: it is left alone, as the
    fixup leaves it."""
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    close_old_connections()


class RearmOnConnect(bootsteps.StartStopStep):
    """Whenever this worker's consumer (re)connects to the broker, send ``games.rearm_all``.

    Why: bot turns wait in the broker as countdown tasks, and a Redis restarted empty takes them
    with it (the turn deadlines are in the database, played by beat's clock). Without this a bot
    whose turn was lost played only when its deadline ran out. The consumer's steps start again
    after every lost connection, so a worker that reconnects re-arms every match in play at once.
    Duplicates do nothing: a bot turn is known by the match version, so several workers may all
    send it."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, c: Any) -> None:
        try:
            c.app.send_task("games.rearm_all")
        except Exception:  # the broker went away again: its next reconnect sends it
            logger.exception("could not send games.rearm_all")


app.steps["consumer"].add(RearmOnConnect)


class RedisChannel(kombu_redis.Channel):
    """kombu's Redis channel, whose ``close`` finishes when the server is gone.

    When Redis goes away, the worker's consumer closes its connection twice: first
    ``Connection.collect()``, which also drops the transport's reference to its connection, then
    ``Connection.close()``. kombu's ``close`` first reads the reply of the pending BRPOP and
    deletes the channel's auto-delete fanout bindings; against a lost server either raises a
    connection error, which kombu ignores there, so the channel stays open. The second ``close``
    then restores the unacknowledged messages (the countdown tasks the worker holds: nearly always
    some) through a new connection pool whose parameters come from the dropped reference, and
    the worker exits with "Unrecoverable error: AttributeError('NoneType' object has no attribute
    'hostname')" (kombu 5.7.0, celery 5.7.0; the family of celery/kombu#582 and #970). It
    happens unless the BRPOP connection is the first broken one the worker notices: most times.

    Here those two steps ignore connection errors, so the first ``close`` goes through: the
    restore is tried while the transport is whole; against the lost server it fails with a
    connection error the consumer ignores, and the messages stay in Redis until its visibility
    timeout, or are gone with a Redis restarted empty: then the reconnecting worker sends the bot
    turns again (``RearmOnConnect``), and beat's clock plays the deadlines from the database. The
    consumer reconnects as after any connection loss.
    """

    # kombu's own attributes used here, which celery-types' stubs leave out.
    _in_poll: Any  # falsy, or the connection whose BRPOP reply is pending
    _closing: bool
    connection_errors: tuple[type[BaseException], ...]

    def close(self) -> None:
        if self._in_poll and not self.closed:
            with suppress(Empty, *self.connection_errors):
                self._brpop_read()  # type: ignore[attr-defined]  # a lost server has no reply to read
        super().close()

    def queue_delete(self, queue: str, *args: Any, **kwargs: Any) -> None:
        with suppress(*(self.connection_errors if self._closing else ())):
            super().queue_delete(queue, *args, **kwargs)


class RedisTransport(kombu_redis.Transport):
    """kombu's Redis transport with ``RedisChannel``."""

    Channel = RedisChannel


@app.on_after_configure.connect
def _use_redis_transport(sender: Celery, source: Any, **kwargs: Any) -> None:
    """A ``redis://`` or ``rediss://`` broker URL goes through ``RedisTransport`` (kombu takes an
    explicit ``broker_transport`` over the URL's scheme); any other broker is left alone."""
    if not source.broker_transport and urlsplit(source.broker_url or "").scheme in {"redis", "rediss"}:
        source.broker_transport = f"{__name__}:RedisTransport"
