"""The Celery app: bot turns and turn deadlines run as its tasks (later issues).

Configured from Django settings (``CELERY_*``). In the embedded mode the broker is ``memory://`` and
the worker is a thread of the serving process (``durak_site.embedded_worker``); with ``REDIS_URL``
run ``celery -A durak_site worker`` and ``celery -A durak_site beat`` as separate processes.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

app = Celery("durak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: Periodic jobs for ``celery beat`` (and the embedded beat thread). Deadlines are armed per move
#: with countdowns; the sweep plays any deadline whose task was lost (a worker killed mid-countdown).
app.conf.beat_schedule = {
    "games-sweep-overdue": {"task": "games.sweep_overdue", "schedule": 60.0},
    # Registration deadlines, start times and stuck tournament games.
    "tournaments-tick": {"task": "tournaments.tick", "schedule": 30.0},
}
