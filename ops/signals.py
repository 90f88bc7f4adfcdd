"""Celery's task signals: each task gets a request id for its log lines, and its run time is
measured per queue (``durak_site.metrics.TASK_SECONDS``)."""

from __future__ import annotations

import time
from typing import Any

from celery import Task, signals

from durak_site import logcontext, metrics

#: When each running task of this process started, by task id.
_started: dict[str, float] = {}


def task_started(task_id: str | None = None, task: Task[..., Any] | None = None, **kwargs: Any) -> None:
    logcontext.new_request(task_id or "")
    if task_id:
        _started[task_id] = time.perf_counter()


def task_finished(task_id: str | None = None, task: Task[..., Any] | None = None, **kwargs: Any) -> None:
    started = _started.pop(task_id or "", None)
    if started is None or task is None or getattr(task.request, "is_eager", False):
        return
    delivery = getattr(task.request, "delivery_info", None) or {}
    queue = delivery.get("routing_key") or "celery"
    metrics.TASK_SECONDS.labels(queue, task.name).observe(time.perf_counter() - started)


def connect() -> None:
    signals.task_prerun.connect(task_started, weak=False, dispatch_uid="ops.task_started")
    signals.task_postrun.connect(task_finished, weak=False, dispatch_uid="ops.task_finished")
