"""Celery task of the analysis board: one step of an evaluation (``analysis.services``).

Routed to the ``reviews`` queue (``settings.CELERY_TASK_ROUTES``), which production serves with
a worker of its own, so an evaluation never waits in front of a bot turn or a deadline.
"""

from __future__ import annotations

from celery import shared_task

from durak_site.tasks import retried_on_lost_database

from .services import EVALUATION_STEP_TASK, evaluation_step


@shared_task(name=EVALUATION_STEP_TASK, **retried_on_lost_database(max_retries=3))
def evaluation_step_task(evaluation_id: int) -> bool:
    """Judge the evaluation's next move and send the next step (harmless twice)."""
    return evaluation_step(evaluation_id=evaluation_id)
