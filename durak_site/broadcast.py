"""Sending a thin event to a channel-layer group once the transaction commits.

Every app's services broadcast this way: a page's sockets hear that something changed only after
it is committed, so the socket that re-reads finds the change. Robust: a broadcast that fails (a
Redis hiccup) must not fail the committed change; sockets resync when they reconnect, and the
beat sweep re-announces every match in play.

A service called by a socket runs in a worker thread of the serving event loop
(``sync_to_async``). There the send is handed to that loop and the thread goes on at once: with
``async_to_sync`` it waited until the loop had got round to the send and Redis had answered, and
under load that wait was about four fifths of a move's time in its thread
(``docs/performance.md``), so the few threads of the pool sat blocked while moves queued for them.
The loop starts the sends in the order they were handed over, before it resumes the socket that waited for
the service.

Anywhere else (a Celery task, a management command) the send is made before the call returns, on
one event loop the process keeps for it in a thread of its own. ``async_to_sync`` made a new loop
in a new thread for every send, and the Redis layer opened its connections anew for each loop:
that was about three fifths of the samples of a move's apply in a profile of ``manage.py
bench_moves``, and what every bot move and deadline paid in the worker.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Coroutine
from functools import partial
from typing import Any

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

#: Sends handed to the serving loop and not finished: the loop keeps only weak references to its
#: tasks, so a task nobody holds could be collected before it ran.
_in_flight: set[asyncio.Task[None]] = set()

#: How long a send from outside a serving loop may take before the caller stops waiting for it
#: (the layer's own Redis timeouts end it sooner; this only keeps a task from hanging).
SEND_TIMEOUT_SECONDS = 10

#: The loop of this process's sends from outside a serving loop, with the process id it was made
#: in: a forked child (Celery's pool) makes its own, its parent's thread does not follow it.
_sender: tuple[int, asyncio.AbstractEventLoop] | None = None
_sender_lock = threading.Lock()


def group_send_on_commit(group: str, event: dict[str, Any]) -> None:
    """``group_send(group, event)`` after the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(_send, group, event), robust=True)


def _send(group: str, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _serving_loop()
    if loop is None:
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, event), _sender_loop())
        sent.result(SEND_TIMEOUT_SECONDS)
        return
    loop.call_soon_threadsafe(_start, layer.group_send(group, event), group)


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop whose ``sync_to_async`` call this thread is making, if any.

    asgiref notes it in ``SyncToAsync.threadlocal`` for ``async_to_sync`` to find, as here
    (``tests/site/test_broadcast.py`` fails if it stops doing so)."""
    loop: asyncio.AbstractEventLoop | None = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop if loop.is_running() else None


def _sender_loop() -> asyncio.AbstractEventLoop:
    """This process's loop for sends from outside a serving loop, started on first use."""
    global _sender
    with _sender_lock:
        if _sender is None or _sender[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="broadcast-sender", daemon=True).start()
            _sender = (os.getpid(), loop)
        return _sender[1]


def _start(send: Coroutine[Any, Any, None], group: str) -> None:
    """On the serving loop: run ``send``, log it if it fails."""
    task = asyncio.ensure_future(send)
    _in_flight.add(task)
    task.add_done_callback(partial(_finished, group))


def _finished(group: str, task: asyncio.Task[None]) -> None:
    _in_flight.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("broadcast to %s failed", group, exc_info=task.exception())
