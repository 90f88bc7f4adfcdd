"""Celery tasks of live play: a bot's turn and a turn deadline.

Each takes ids and the match version it was armed for and calls one service; a stale version
makes the service do nothing, so a task delivered twice (or after the match moved on) is
harmless. They are enqueued after commit by ``games.services``; ``rearm_deadlines`` re-enqueues
them at start-up from the database, and ``sweep_overdue`` (for ``celery beat``, every minute)
plays any deadline whose task was lost anyway.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games import services


@shared_task(
    name="games.bot_turn",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=0.2,
    max_retries=3,
)
def bot_turn(match_id: int, version: int, seat: int) -> bool:
    """Play the bot or autopilot move of ``seat`` if the match is still at ``version``."""
    return services.bot_turn(match_id=match_id, version=version, seat=seat)


@shared_task(
    name="games.deadline",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=0.2,
    max_retries=3,
)
def deadline(match_id: int, version: int) -> bool:
    """Play the timeout defaults if the match is still at ``version`` when its turn timer ends."""
    return services.match_timeout(match_id=match_id, version=version)


@shared_task(name="games.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    """Play the timeouts of active matches whose deadline passed and whose task never ran."""
    return services.matches_timeout_overdue()
