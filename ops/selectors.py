"""What the site is doing now, read at the moment it is asked (a scrape, the ops page): every
process then reports the same truth, and none has to keep a count that could drift."""

from __future__ import annotations

from urllib.parse import urlsplit

import redis
from django.conf import settings
from django.utils import timezone

from games.models import Match, Table
from history.review.models import Review
from ops.health import QUEUES, REDIS_TIMEOUT
from people.models import Presence
from people.selectors import PRESENCE_TTL

#: kombu's Redis transport keeps a queue's messages of priority 0 in the list named as the queue,
#: the other priority steps in lists with this separator and the step appended.
_PRIORITY_SEP = "\x06\x16"
_PRIORITY_STEPS = (3, 6, 9)


def players_online() -> int:
    """Signed-in users with a personal socket open (``people.Presence``, fresh rows only)."""
    fresh = timezone.now() - PRESENCE_TTL
    return Presence.objects.filter(seen__gte=fresh).values("user_id").distinct().count()


def matches_in_play() -> int:
    return Match.objects.filter(status=Match.Status.ACTIVE).count()


def deals_waiting() -> int:
    """Full tables waiting for their players' values before they deal."""
    return Table.objects.filter(status=Table.Status.DEALING).count()


def reviews_running() -> int:
    return Review.objects.filter(status=Review.Status.PENDING).count()


def queue_depths() -> dict[str, int] | None:
    """Messages waiting in each Celery queue (Redis ``LLEN``), or ``None`` when the broker is not
    Redis (the embedded ``memory://`` one lives in the serving process)."""
    url = settings.CELERY_BROKER_URL
    if urlsplit(url).scheme not in {"redis", "rediss"}:
        return None
    client = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)
    try:
        with client.pipeline(transaction=False) as pipe:
            for queue in QUEUES:
                pipe.llen(queue)
                for step in _PRIORITY_STEPS:
                    pipe.llen(f"{queue}{_PRIORITY_SEP}{step}")
            lengths = pipe.execute()
    finally:
        client.close()
    per_queue = 1 + len(_PRIORITY_STEPS)
    return {queue: sum(lengths[i * per_queue : (i + 1) * per_queue]) for i, queue in enumerate(QUEUES)}
