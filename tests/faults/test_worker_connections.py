"""A Celery worker's database connections live as a request's do (``durak_site.celery``): kept
across tasks in the pool or for ``CONN_MAX_AGE``, closed when unusable or left inside a transaction. Celery's
Django fixup alone closed them before and after every task, so every task connected anew."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from celery import signals
from django.db import connection, transaction
from django.utils import timezone

from games.engine import Rules
from games.models import Table
from play import services, tasks

from .stack import Stack
from .support import human, wait_until

pytestmark = [pytest.mark.postgres]

#: Beat's clock: a task twice a second in production, one query each.
CLOCK = "games.clock"
#: Tasks each round sends: the clock's ticks and the sweep that shows they have run.
TASKS = 6


def _sessions() -> int:
    """Sessions ever opened on the test database (the server counts them)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def _run(stack: Stack, name: str) -> None:
    """Five clock ticks, then beat's table sweep, which closes a table nobody joined: the worker
    runs its tasks in turn, so once that table is closed the ticks have run."""
    rules = Rules.for_variant("podkidnoy", players=2)
    table = services.table_create(creator=human(name), rules=rules)
    Table.objects.filter(pk=table.pk).update(created=timezone.now() - timedelta(days=1))
    for _ in range(TASKS - 1):
        stack.send(CLOCK)
    stack.send("games.tables_sweep")
    closed = Table.objects.filter(pk=table.pk, status=Table.Status.CLOSED)
    wait_until(closed.exists, timeout=60)
    time.sleep(1.5)  # a server process reports its session when it ends, or within a second idle


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.parametrize(
    ("pool", "max_age", "opened"),
    [("10", "0", range(0, 2)), ("0", "60", range(0, 2)), ("0", "0", range(TASKS, 2 * TASKS + 1))],
)
def test_a_worker_connects_as_often_as_its_pool_or_conn_max_age_says(
    stack: Stack, pool: str, max_age: str, opened: range
) -> None:
    """Six tasks in a worker: with the production setting (a pool) or ``CONN_MAX_AGE = 60`` no
    new connection, or one; with neither, one or two a task, as a request gets."""
    stack.env["DATABASE_POOL_MAX_SIZE"] = pool
    stack.env["DATABASE_CONN_MAX_AGE"] = max_age
    stack.worker("worker")
    _run(stack, "first")  # the worker's first connection, after its start-up tasks
    before = _sessions()
    _run(stack, "second")
    assert _sessions() - before in opened


def _task_ends() -> None:
    """What a worker's tracer sends when a task has run (here: beat's clock)."""
    signals.task_postrun.send(
        sender=tasks.clock, task_id="t", task=tasks.clock, args=(), kwargs={}, retval=0, state="SUCCESS"
    )


@pytest.mark.django_db(transaction=True)
def test_a_connection_left_inside_a_transaction_is_closed_after_its_task() -> None:
    """What a task killed by its time limit mid-transaction would leave: the next task must not
    run inside it."""
    connection.ensure_connection()
    connection.set_autocommit(False)
    _task_ends()
    assert connection.connection is None
    connection.set_autocommit(True)


@pytest.mark.django_db(transaction=True)
def test_an_eager_task_leaves_its_caller_s_connection_alone() -> None:
    """A task run eagerly ran inside its caller's transaction, which goes on after it."""
    with transaction.atomic():
        connection.ensure_connection()
        kept = connection.connection
        tasks.clock.push_request(is_eager=True)  # type: ignore[call-arg]  # celery-types: no keywords
        try:
            _task_ends()
        finally:
            tasks.clock.pop_request()
        assert connection.connection is kept
