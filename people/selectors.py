"""Reads of the ties between players and of who is online."""

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import Block, Follow, Presence, Sanction

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


def _active_sanctions(user_id: int, kind: str) -> QuerySet[Sanction]:
    now = timezone.now()
    return Sanction.objects.filter(user_id=user_id, kind=kind, lifted_at__isnull=True).filter(
        Q(until__isnull=True) | Q(until__gt=now)
    )


def muted_until(user_id: int) -> datetime | None:
    """When ``user_id``'s chat mute ends (the latest of their active mutes), or ``None`` if not muted."""
    ends = list(_active_sanctions(user_id, Sanction.Kind.MUTE).values_list("until", flat=True))
    if not ends:
        return None
    return max(end or datetime.max.replace(tzinfo=UTC) for end in ends)


def rated_barred(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` are barred from rated play now."""
    now = timezone.now()
    return set(
        Sanction.objects.filter(
            user_id__in=list(user_ids), kind=Sanction.Kind.RATED_BAR, lifted_at__isnull=True
        )
        .filter(Q(until__isnull=True) | Q(until__gt=now))
        .values_list("user_id", flat=True)
    )


def ties(viewer_id: int, player_id: int) -> dict[str, bool]:
    """How ``viewer_id`` stands to ``player_id``: following, blocking (the buttons on a profile)."""
    return {
        "following": Follow.objects.filter(follower_id=viewer_id, followed_id=player_id).exists(),
        "blocking": Block.objects.filter(blocker_id=viewer_id, blocked_id=player_id).exists(),
    }
