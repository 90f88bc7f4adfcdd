"""The miner's periodic task (on beat's schedule): it reads the next batch past the cursor."""

from __future__ import annotations

from celery import shared_task

from puzzles.services import mine_new


@shared_task(name="puzzles.mine")
def mine() -> None:
    mine_new()
