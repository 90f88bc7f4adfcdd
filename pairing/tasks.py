"""Celery tasks of pairing, each calling one service: the beat's pairing of the pool (ranges
widen with waiting time) and expiring challenges, and a seek's end when its owner left."""

from __future__ import annotations

from celery import shared_task

from durak_site.tasks import retried_on_lost_database
from pairing import challenges, services
from people.selectors import is_online

RETRIED = retried_on_lost_database(max_retries=3)

#: How long a player may be without any page open before their seek goes: a page reload or a
#: click to another page closes the last socket for a moment, and must not cost the seek.
OFFLINE_GRACE_SECONDS = 8.0


@shared_task(name="pairing.tick", **RETRIED)
def tick() -> int:
    """Pair the pool again and expire old challenges (every few seconds, from the beat)."""
    challenges.challenges_expire()
    return services.pool_pair()


@shared_task(name="pairing.offline", **RETRIED)
def offline(user_id: int) -> int:
    """``user_id``'s last page closed ``OFFLINE_GRACE_SECONDS`` ago: unless they came back,
    their seek goes (and their challenges are withdrawn)."""
    if is_online(user_id):
        return 0
    challenges.challenges_withdraw(user_id=user_id)
    return services.seek_cancel(user_id=user_id)
