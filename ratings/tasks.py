"""Celery tasks of ratings: applying a finished rated match to the ratings.

A finishing match is rated in its own transaction (``play.services.turn.commit`` calls
``ratings.services.match_rate``); the task keeps its name so that those queued before that
(and any sent by hand) still run. It takes the match id and calls ``match_rate``, which is
idempotent: a redelivered or repeated task finds the match's ``RatingChange`` rows and does
nothing.
"""

from __future__ import annotations

from celery import shared_task

from durak_site.tasks import retried_on_lost_database
from ratings.services import match_rate


@shared_task(name="ratings.rate_match", **retried_on_lost_database(max_retries=5))
def rate_match(match_id: int) -> bool:
    """Apply the rating changes of finished match ``match_id`` (once, whatever the deliveries)."""
    return match_rate(match_id)
