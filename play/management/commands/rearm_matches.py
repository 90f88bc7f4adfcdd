"""``manage.py rearm_matches``: send the bot turns of every active match again.

Pending Celery countdowns do not survive a restart of the ``memory://`` broker (and may be lost
with Redis too); the turn deadlines live in the database, where beat's clock finds them. Run this
once the worker is up: in the embedded mode from the serving process itself (the broker lives in
its memory), with Redis once per deploy (a worker also does it whenever it connects to the
broker: ``durak_site.celery.RearmOnConnect``). Running it twice is harmless: a bot turn carries
the match version and a duplicate does nothing.
"""

from typing import Any

from django.core.management.base import BaseCommand

from play import services


class Command(BaseCommand):
    help = "Send the bot turns of every active match again (after a restart lost the broker's countdowns)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"Re-armed {services.matches_rearm()} active match(es).")
