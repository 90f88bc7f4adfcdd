"""The Celery worker that runs inside the serving process in the embedded mode.

With the ``memory://`` broker, tasks live in this process's memory, so the worker must be a thread of
the same process. It is Celery's ``WorkController`` (``app.Worker`` installs signal handlers and fails
outside the main thread) on the solo pool, with heartbeat, mingle and gossip off since there is no
other worker to talk to. It is started by the run entry points (``manage.py serve``, ``runserver``)
and never from ``AppConfig.ready()``, which also runs in ``migrate``, ``shell`` and real workers.

Countdowns pending in memory die with the process: deadlines must be kept in the database and re-armed
at start-up. The beat schedule runs in a second thread (Celery's threaded ``EmbeddedService`` with the
in-memory scheduler), since a ``celery beat`` process could not reach a ``memory://`` broker.
"""

import logging
import socket
import threading

from celery.beat import EmbeddedService
from celery.worker import WorkController
from django.conf import settings

from .celery import app

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_worker: WorkController | None = None


def start_embedded_worker() -> WorkController | None:
    """Start the in-process worker once; do nothing when a real broker is configured.

    Returns the running worker (the same one on every call), or ``None`` outside the embedded mode.
    """
    global _worker
    if not settings.CELERY_EMBEDDED_WORKER:
        return None
    with _lock:
        if _worker is None:
            worker = WorkController(
                app=app,
                hostname=f"embedded@{socket.gethostname()}",
                pool_cls="solo",
                concurrency=1,
                without_heartbeat=True,
                without_mingle=True,
                without_gossip=True,
                loglevel="WARNING",
            )
            threading.Thread(target=worker.start, name="celery-embedded", daemon=True).start()
            beat = EmbeddedService(app, thread=True, scheduler_cls="celery.beat:Scheduler")
            # thread=True makes a _Threaded; celery-types' _Process lacks start() (it is a Process).
            beat.start()  # type: ignore[union-attr]
            logger.info("embedded Celery worker started")
            _worker = worker
        return _worker
