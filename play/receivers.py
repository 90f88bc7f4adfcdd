"""Live play's part when an account is deleted (``accounts.signals.account_deleted``): its seats
are freed, so it is never dealt into another match.

* A match it is playing: it resigns (``services.match_resign``), the autopilot finishes its
  seat and it counts as the fool, as any resignation.
* A seat at a table with no match in play: it leaves (``services.seat_leave``; a table no
  person sits at any more closes).
* A seat at a table whose match goes on after the resignation (three or more players): it
  leaves when that match ends (``leave_after_match``, on ``games.signals.match_finished``).
* A table it opened and nobody sits at (one made to watch bots, still waiting): closed.

Everything goes through the live-play services, as a player's own requests do; this module
only decides what to call.
"""

from __future__ import annotations

import contextlib
import logging
from functools import partial
from typing import Any

from django.db import transaction

from accounts.models import User
from accounts.signals import account_deleted
from games.models import Match, MatchPlayer, Seat, Table
from games.signals import match_finished
from play import services

logger = logging.getLogger(__name__)


def free_deleted_account(sender: type[User], *, user: User, **kwargs: Any) -> None:
    """Resign the deleted account's matches in play, then give up its seats."""
    playing = MatchPlayer.objects.filter(user=user, resigned=False, match__status=Match.Status.ACTIVE)
    for match_id in playing.values_list("match_id", flat=True):
        try:
            services.match_resign(match_id=match_id, user=user)
        except services.GameError as error:
            logger.warning("deleted user %s not resigned from match %s: %s", user.pk, match_id, error)
    for table_id in Seat.objects.filter(user=user).values_list("table_id", flat=True):
        _leave(table_id, user)
    Table.objects.filter(creator=user, status=Table.Status.OPEN).exclude(seats__user__is_bot=False).update(
        status=Table.Status.CLOSED
    )


def leave_after_match(sender: type[Match], *, match: Match, **kwargs: Any) -> None:
    """A match ended: deleted accounts still seated at its table leave it after the commit."""
    deleted = Seat.objects.filter(table_id=match.table_id, user__deleted_at__isnull=False)
    for user_id in deleted.values_list("user_id", flat=True):
        transaction.on_commit(partial(_leave_later, match.table_id, user_id), robust=True)


def _leave(table_id: int, user: User) -> None:
    # Refused while a match goes on at the table: ``leave_after_match`` frees the seat when it ends.
    with contextlib.suppress(services.TableError):
        services.seat_leave(table_id=table_id, user=user)


def _leave_later(table_id: int, user_id: int) -> None:
    user = User.objects.filter(pk=user_id).first()
    if user is not None:
        _leave(table_id, user)


def connect() -> None:
    """Called from ``GamesConfig.ready``."""
    account_deleted.connect(free_deleted_account, sender=User, dispatch_uid="games.free_deleted_account")
    match_finished.connect(leave_after_match, sender=Match, dispatch_uid="games.leave_after_match")
