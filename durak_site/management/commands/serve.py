"""``manage.py serve``: the site with daphne, plus the embedded Celery worker when there is no broker.

This is what ``make run`` ends with. In production run it (or ``daphne durak_site.asgi:application``)
once per process behind the proxy, with ``celery worker`` and ``celery beat`` alongside.
"""

from typing import Any

from daphne.cli import CommandLineInterface
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from durak_site.embedded_worker import start_embedded_worker


class Command(BaseCommand):
    help = "Serve the site with daphne (and the in-process Celery worker in the embedded mode)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default="127.0.0.1", help="address to listen on")
        parser.add_argument("--port", type=int, default=8000, help="port to listen on")

    def handle(self, *args: Any, **options: Any) -> None:
        if start_embedded_worker() is not None:
            self.stdout.write("Embedded Celery worker running (memory:// broker).")
            # Countdowns died with the previous process: send every running match's bot turns again.
            call_command("rearm_matches")
        self.stdout.write(f"Serving on http://{options['bind']}:{options['port']}/")
        CommandLineInterface().run(
            ["--bind", options["bind"], "--port", str(options["port"]), "durak_site.asgi:application"]
        )
