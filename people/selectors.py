"""Reads of the ties between players and of who is online."""

from collections.abc import Iterable
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from .models import Block, Follow, Presence

#: A socket that has not beaten its heart for this long is taken for gone (the client beats
#: every 25 s, see ``static/js/me.js``).
PRESENCE_TTL = timedelta(seconds=60)


def blocked_between(first_id: int, second_id: int) -> bool:
    """Whether either of the two blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=first_id, blocked_id=second_id) | Q(blocker_id=second_id, blocked_id=first_id)
    ).exists()


def blocked_ids(user_id: int) -> set[int]:
    """Everyone ``user_id`` blocked or was blocked by: the people never to be put together with them."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in pairs for other in pair if other != user_id}


def followed_ids(user_id: int) -> set[int]:
    """Whom ``user_id`` follows."""
    return set(Follow.objects.filter(follower_id=user_id).values_list("followed_id", flat=True))


def online_ids(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` have a personal socket open now (on any process)."""
    fresh = timezone.now() - PRESENCE_TTL
    return set(
        Presence.objects.filter(user_id__in=list(user_ids), seen__gte=fresh).values_list("user_id", flat=True)
    )


def is_online(user_id: int) -> bool:
    return bool(online_ids([user_id]))
