"""``manage.py runserver``: daphne's development server plus the embedded Celery worker.

``inner_run`` executes in the autoreloaded child process, so the worker lives next to the server
that enqueues into its ``memory://`` broker and restarts with it.
"""

from typing import Any

from daphne.management.commands.runserver import Command as DaphneRunserverCommand
from django.core.management import call_command

from durak_site.embedded_worker import start_embedded_worker


class Command(DaphneRunserverCommand):
    def inner_run(self, *args: Any, **options: Any) -> None:
        if start_embedded_worker() is not None:
            call_command("rearm_matches")  # countdowns died with the previous process
        super().inner_run(*args, **options)
