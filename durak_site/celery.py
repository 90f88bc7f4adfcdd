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

#: Periodic jobs for ``celery beat``. Empty for now: deadlines are armed per game with countdowns,
#: and a later issue adds a sweep that re-arms them from the database.
app.conf.beat_schedule = {}
