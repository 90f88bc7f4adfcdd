"""Whom a player follows, and what each of them is doing now: online, playing (with the match to
watch) or away. Composed here, on the top floor, because it joins ``people`` (follows, presence)
with ``games`` (who is seated at a match in play)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.models import Match, MatchPlayer
from people import selectors as people_selectors
from play.access import may_watch


@dataclass(frozen=True)
class Friend:
    user: User
    online: bool
    match_id: int | None  # a match in play that the viewer may watch

    @property
    def playing(self) -> bool:
        return self.match_id is not None


def friends_of(viewer: User | AnonymousUser) -> list[Friend]:
    """Whom ``viewer`` follows: playing first, then online, then the rest, each by name."""
    if not isinstance(viewer, User):
        return []
    ids = people_selectors.followed_ids(viewer.pk)
    if not ids:
        return []
    users = User.objects.filter(pk__in=ids, deleted_at__isnull=True)
    online = people_selectors.online_ids(ids)
    playing: dict[int, int] = {}
    seated = (
        MatchPlayer.objects.filter(user_id__in=ids, match__status=Match.Status.ACTIVE)
        .select_related("match__table")
        .order_by("match__started_at")
    )
    for row in seated:
        if may_watch(row.match, row.match.players.all(), viewer):
            playing[row.user_id] = row.match_id
    friends = [Friend(user, user.pk in online, playing.get(user.pk)) for user in users]
    return sorted(friends, key=lambda f: (not f.playing, not f.online, f.user.display_name.casefold()))


def blocked_by_viewer(viewer: User | AnonymousUser) -> list[User]:
    """Whom ``viewer`` blocked (the friends page lists them, to unblock)."""
    if not isinstance(viewer, User):
        return []
    return list(User.objects.filter(blocked_by__blocker=viewer).order_by("display_name"))
