"""Celery tasks of live play: a bot's turn, beat's clock and the end of a table's wait for values.

Each takes ids and what it was armed for (the match version) and calls one service; a stale one
makes the service do nothing, so a task delivered twice (or after the match moved on) is
harmless. ``play.services`` sends them after commit by the names they are registered under
here (``services.turn.BOT_TURN_TASK``, ``services.tables.DEAL_DUE_TASK``): they call the
services, so the services do not import them back. ``manage.py rearm_matches`` sends the bot
turns again at start-up from the database, as ``rearm_all`` does whenever a worker (re)connects
to the broker. ``clock`` (beat, twice a second) plays every turn deadline that ran out: none
has a task of its own. ``matches_announce`` (beat, every minute) re-announces every match in play.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from celery import Task, shared_task

from durak_site import heartbeat
from durak_site.tasks import LOST_DATABASE, retried_on_lost_database
from play import broadcast, services
from play.services.tables import DEAL_DUE_TASK
from play.services.turn import BOT_TURN_TASK

logger = logging.getLogger(__name__)

#: Each is harmless twice: a bot turn or a deal checks what it was armed for, and a re-arm's
#: duplicates do nothing.
RETRIED: Final[dict[str, Any]] = retried_on_lost_database(max_retries=3)


#: A bot turn is tried again through up to about half a minute of outage (waits of at most 1, 2,
#: 4, 8 and 16 s, jittered): a turn timer's length, after which beat's clock plays the seat anyway.
BOT_TURN_RETRIES: Final = 5


@shared_task(name=BOT_TURN_TASK, bind=True, **retried_on_lost_database(max_retries=BOT_TURN_RETRIES))
def bot_turn(self: Task[..., bool], match_id: int, version: int, seat: int) -> bool:
    """Play the bot or autopilot move of ``seat`` if the match is still at ``version``.

    A database outage is logged as one, not as the bot's failure or timeout: the turn is tried
    again (``retried_on_lost_database``) and, when every try failed, the log says the turn is
    left to beat's clock, which plays the bot's move once the deadline has passed."""
    try:
        return services.bot_turn(match_id=match_id, version=version, seat=seat)
    except LOST_DATABASE as error:
        where = f"the bot turn of match {match_id} (version {version}, seat {seat})"
        if self.request.retries < BOT_TURN_RETRIES:
            logger.warning("database unavailable during %s, trying again: %s", where, error)
        else:
            logger.error(
                "database unavailable during %s after %d tries: left to beat's clock at its deadline: %s",
                where,
                BOT_TURN_RETRIES + 1,
                error,
            )
        raise


@shared_task(name=DEAL_DUE_TASK, **RETRIED)
def deal_due(table_id: int) -> bool:
    """A full table's wait for its players' values ran out: deal (``services.table_deal_due``;
    nothing for a table already dealt or waiting on a later deadline)."""
    return services.table_deal_due(table_id=table_id) is not None


@shared_task(name="games.rearm_all", **RETRIED)
def rearm_all() -> int:
    """Send the bot turns of every match in play again (``services.matches_rearm``): sent by a
    worker that has just connected to the broker."""
    return services.matches_rearm()


@shared_task(name="games.clock", ignore_result=True)
def clock() -> int:
    """Beat's clock, twice a second: play every deadline that has run out
    (``services.matches_timeout_overdue``). Its heartbeat tells readiness that beat and a worker of
    the ``celery`` queue both run (``ops.health``)."""
    heartbeat.beat("clock")
    return services.matches_timeout_overdue()


@shared_task(name="games.matches_announce", ignore_result=True)
def matches_announce() -> int:
    """Announce every match in play (``broadcast.matches_announce``: the safety net for a
    broadcast lost with a process that died right after its commit)."""
    return broadcast.matches_announce()


@shared_task(name="games.tables_sweep", ignore_result=True)
def tables_sweep() -> int:
    """Close the tables nobody joined in time and re-draw the lobby when a host has just gone
    away (``services.tables_sweep``; for ``celery beat``, every minute; harmless twice)."""
    return services.tables_sweep()
