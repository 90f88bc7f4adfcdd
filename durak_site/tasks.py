"""Enqueueing Celery tasks from request or service code.

A task that reads a row written by the current transaction must not start before that transaction
commits, or the worker reads stale data (or nothing at all). ``enqueue_on_commit`` is the one way
site code enqueues work: it defers the send to ``transaction.on_commit`` (outside a transaction it
sends at once) and accepts a ``countdown`` for deadlines.

A task is given as itself or by the name it is registered under. By name, the code that sends it
need not import it: games' services send their bot turns and turn timers so, because those tasks
call the services (Celery needs no more than the name to send a task).

Example::

    with transaction.atomic():
        match = match_create(...)
        enqueue_on_commit("games.bot_turn", match.pk, countdown=0.5)
"""

import logging
from typing import Any

from celery import Task
from django.db import InterfaceError, OperationalError, transaction

from durak_site.celery import app

logger = logging.getLogger(__name__)


#: What a lost or unreachable database raises: ``OperationalError`` when a statement or a new
#: connection fails, ``InterfaceError`` when a connection already closed is used again.
LOST_DATABASE: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


def retried_on_lost_database(*, max_retries: int) -> dict[str, Any]:
    """The options of a task tried again, a little later each time, when it fails on a lost
    database connection (``@shared_task(name=..., **retried_on_lost_database(max_retries=3))``).
    Only for a task that is harmless twice: every task of the site checks what it was armed for."""
    return {
        "ignore_result": True,
        "autoretry_for": LOST_DATABASE,
        "retry_backoff": True,  # 1 s, 2 s, 4 s... jittered: celery's backoff factor is whole seconds
        "max_retries": max_retries,
    }


def enqueue_on_commit(
    task: Task[..., Any] | str,
    *args: Any,
    countdown: float | None = None,
    using: str | None = None,
    **kwargs: Any,
) -> None:
    """Send ``task(*args, **kwargs)`` (a task, or a task's registered name) once the current
    transaction commits, after ``countdown`` s.

    Robust: the work is committed by then, so a broker that is down must not turn the request
    into an error. The failure is logged, and nothing is lost for good: beat's clock plays the
    turn deadlines from the database, and bot turns are sent again at start-up.
    """

    def send() -> None:
        # celery-types has countdown as a float; celery takes None for none.
        if isinstance(task, str):
            app.send_task(task, args=args, kwargs=kwargs, countdown=countdown)
        else:
            task.apply_async(args=args, kwargs=kwargs, countdown=countdown)  # type: ignore[arg-type]

    transaction.on_commit(send, using=using, robust=True)
