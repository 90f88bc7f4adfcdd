"""Celery tasks of ratings: applying a finished rated match to the ratings.

Enqueued after commit by ``ratings.receivers`` when a rated match finishes. It takes the match id
and calls ``ratings.services.match_rate``, which is idempotent: a redelivered or repeated task
finds the match's ``RatingChange`` rows and does nothing.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from ratings.services import match_rate


@shared_task(
    name="ratings.rate_match",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,  # 1 s, 2 s, 4 s... jittered: celery's backoff factor is whole seconds
    max_retries=5,
)
def rate_match(match_id: int) -> bool:
    """Apply the rating changes of finished match ``match_id`` (once, whatever the deliveries)."""
    return match_rate(match_id)
