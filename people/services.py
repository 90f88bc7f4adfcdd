"""Writes of the ties between players, of presence and of sanctions."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from durak_site.errors import Refused

from .models import Block, Follow, Presence, Sanction
from .selectors import PRESENCE_TTL, online_ids
from .signals import user_offline


def follow(user: User, target: User) -> None:
    """``user`` follows ``target`` (again is a no-op); refused for oneself or across a block."""
    if user.pk == target.pk:
        raise Refused(_("You cannot follow yourself."))
    if (
        Block.objects.filter(blocker=target, blocked=user).exists()
        or Block.objects.filter(blocker=user, blocked=target).exists()
    ):
        raise Refused(_("You cannot follow a player you blocked or who blocked you."))
    Follow.objects.get_or_create(follower=user, followed=target)


def unfollow(user: User, target: User) -> None:
    Follow.objects.filter(follower=user, followed=target).delete()


def block(user: User, target: User) -> None:
    """``user`` blocks ``target``: any follow between the two goes with it."""
    if user.pk == target.pk:
        raise Refused(_("You cannot block yourself."))
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=target)
        Follow.objects.filter(follower=user, followed=target).delete()
        Follow.objects.filter(follower=target, followed=user).delete()


def unblock(user: User, target: User) -> None:
    Block.objects.filter(blocker=user, blocked=target).delete()


def presence_open(user_id: int, channel_name: str) -> None:
    """A personal socket of ``user_id`` opened (and the user's rows of dead sockets go)."""
    now = timezone.now()
    Presence.objects.filter(user_id=user_id, seen__lt=now - PRESENCE_TTL).delete()
    Presence.objects.update_or_create(channel_name=channel_name, defaults={"user_id": user_id, "seen": now})


def presence_beat(channel_name: str) -> None:
    """The socket's heartbeat: it is still there."""
    Presence.objects.filter(channel_name=channel_name).update(seen=timezone.now())


def presence_close(user_id: int, channel_name: str) -> None:
    """A personal socket closed; when it was the user's last fresh one, ``user_offline`` is sent."""
    Presence.objects.filter(channel_name=channel_name).delete()
    if user_id not in online_ids([user_id]):
        user_offline.send(sender=Presence, user_id=user_id)


def sanction_impose(*, user_id: int, kind: str, until: datetime | None) -> Sanction:
    """Mute ``user_id`` or bar them from rated play until ``until`` (``None``: until lifted).

    Called by the logged moderation action only (``play.chat.moderation``), never on its own."""
    if kind not in Sanction.Kind.values:
        raise Refused(_("There is no such sanction."))
    if kind == Sanction.Kind.MUTE and until is None:
        raise Refused(_("A mute needs an end."))
    if until is not None and until <= timezone.now():
        raise Refused(_("The end of a sanction must lie in the future."))
    return Sanction.objects.create(user_id=user_id, kind=kind, until=until)


def sanctions_lift(*, user_id: int, kind: str) -> int:
    """Lift every active sanction of ``kind`` on ``user_id``; returns how many."""
    return Sanction.objects.filter(user_id=user_id, kind=kind, lifted_at__isnull=True).update(
        lifted_at=timezone.now()
    )
