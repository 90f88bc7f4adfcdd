"""Celery tasks of match history: one step of a game review (``history.review.services``), and
beat's sweep that resumes the reviews whose chain of steps was lost.

Routed to the ``reviews`` queue (``settings.CELERY_TASK_ROUTES``), which production serves with
a worker of its own (Procfile), so a review never waits in front of a bot turn or a deadline.
"""

from __future__ import annotations

from celery import shared_task

from durak_site.tasks import retried_on_lost_database
from history.review.services import REVIEW_STEP_TASK, review_step, reviews_resume


@shared_task(name=REVIEW_STEP_TASK, **retried_on_lost_database(max_retries=3))
def review_step_task(review_id: int) -> bool:
    """Assess the review's next decision and send the next step (harmless twice)."""
    return review_step(review_id=review_id)


@shared_task(name="history.reviews_sweep", **retried_on_lost_database(max_retries=1))
def reviews_sweep() -> int:
    """Resume the stalled reviews (beat, every minute; harmless twice)."""
    return reviews_resume()
