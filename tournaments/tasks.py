"""Celery tasks of tournaments: a tournament match ended, an arena's pairing pass, and the
periodic tick.

``match_finished`` is enqueued by ``tournaments.receivers`` after the commit of every finished
match played at a tournament's table, ``match_dealt`` after one dealt there once its wait for the
players' values was over; ``arena_pass`` by ``tournaments.services`` for the moment
an arena's waiting player will have waited long enough, and for its end; ``tick`` runs under
``celery beat`` (every 30 seconds: add ``"tournaments-tick": {"task": "tournaments.tick",
"schedule": 30.0}`` to the beat schedule). Each only calls a service, which locks the tournament
row and derives what to do from what is stored, so a task delivered twice or late changes
nothing.
"""

from __future__ import annotations

from celery import shared_task

from durak_site.tasks import retried_on_lost_database
from tournaments import services


@shared_task(name="tournaments.match_finished", **retried_on_lost_database(max_retries=5))
def match_finished(match_id: int) -> bool:
    """Record the finished match of a pairing and move the tournament on."""
    return services.match_finished(match_id=match_id)


@shared_task(name="tournaments.match_dealt", **retried_on_lost_database(max_retries=5))
def match_dealt(match_id: int) -> bool:
    """Tell the tournament's page that a game was dealt at one of its tables."""
    return services.match_dealt(match_id=match_id)


@shared_task(name=services.ARENA_PASS_TASK, **retried_on_lost_database(max_retries=5))
def arena_pass(tournament_id: int) -> int:
    """Pair an arena's free players, or finish it once its time is up and its games are over."""
    return services.arena_pass(tournament_id=tournament_id)


@shared_task(name="tournaments.tick", ignore_result=True)
def tick() -> int:
    """Close registrations, start tournaments whose time has come, deal games whose task was lost."""
    return services.tournaments_tick()
