"""Enqueueing Celery tasks from request or service code.

A task that reads a row written by the current transaction must not start before that transaction
commits, or the worker reads stale data (or nothing at all). ``enqueue_on_commit`` is the one way
site code enqueues work: it defers the send to ``transaction.on_commit`` (outside a transaction it
sends at once) and accepts a ``countdown`` for deadlines.

Example::

    with transaction.atomic():
        match = match_create(...)
        enqueue_on_commit(bot_turn, match.pk, countdown=0.5)
"""

from typing import Any

from celery import Task
from django.db import transaction


def enqueue_on_commit(
    task: Task, *args: Any, countdown: float | None = None, using: str | None = None, **kwargs: Any
) -> None:
    """Send ``task(*args, **kwargs)`` once the current transaction commits, after ``countdown`` s."""

    def send() -> None:
        task.apply_async(args=args, kwargs=kwargs, countdown=countdown)

    transaction.on_commit(send, using=using, robust=False)

