"""How many tables one player may keep open and open, and the end of tables nobody joined
(issue: one account opened 300 tables in 50 s and the lobby grew fifty-fold).

* ``check_table_allowed``: a user may have ``settings.GAMES_OPEN_TABLES_PER_USER`` tables open
  at once (waiting for players, or with a match in play) and open at most
  ``GAMES_TABLE_CREATE_RATE`` = (count, seconds) in any window. Counted in the database under a
  lock on the user's row, so two requests at once (on any process) cannot both slip through.
  Tables a tournament arranges (``Table.organised``) neither count nor are refused.
* ``tables_close_unjoined``: a table still waiting ``GAMES_UNJOINED_TABLE_MINUTES`` after it was
  opened, that nobody but its creator ever sat at and that never dealt, is closed (beat runs it
  through ``games.tables_sweep`` every minute; closing twice does nothing).
* ``host_seen`` / ``hosts_away_announce``: the host's presence, a last-seen time in the table's
  row refreshed by the creator's table or lobby socket; the lobby shows "host away" once it is
  ``GAMES_HOST_AWAY_SECONDS`` old (``presenters.host_away``), and the sweep re-draws the lobby when a host
  has just gone away.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.translation import ngettext

from accounts.models import User
from games.models import Match, Table
from play import broadcast
from play.services.errors import TableError

#: How often beat runs the sweep (seconds): the window in which a host "has just gone away".
SWEEP_SECONDS = 60.0


class TableLimit(TableError):
    """Refused: too many open tables, or too many opened lately."""


def check_table_allowed(user: User) -> None:
    """Refuse a new table to ``user`` past either limit. Call inside the creating transaction."""
    User.objects.select_for_update().filter(pk=user.pk).first()  # one creation per user at a time
    mine = Table.objects.filter(creator=user, organised=False)
    most = int(settings.GAMES_OPEN_TABLES_PER_USER)
    playing = Q(status=Table.Status.PLAYING, matches__status=Match.Status.ACTIVE)
    open_now = mine.filter(Q(status=Table.Status.OPEN) | playing).distinct().count()
    if open_now >= most:
        raise TableLimit(
            ngettext(
                "You already have %(count)d open table: finish or leave it before opening another.",
                "You already have %(count)d open tables: finish or leave one before opening another.",
                open_now,
            )
            % {"count": open_now}
        )
    count, seconds = settings.GAMES_TABLE_CREATE_RATE
    recent = mine.filter(created__gte=timezone.now() - timedelta(seconds=int(seconds))).count()
    if recent >= int(count):
        minutes = max(1, int(seconds) // 60)
        raise TableLimit(
            ngettext(
                "You have opened %(count)d tables in the last minute: wait a little before opening another.",
                "You have opened %(count)d tables in the last %(minutes)d minutes: wait a little before "
                "opening another.",
                minutes,
            )
            % {"count": recent, "minutes": minutes}
        )


def unjoined_tables(now: datetime | None = None, *, only: int | None = None) -> list[int]:
    """Ids of the tables ``tables_close_unjoined`` closes (see the module's docstring), or of
    table ``only`` alone if it is one."""
    cutoff = (now or timezone.now()) - timedelta(minutes=int(settings.GAMES_UNJOINED_TABLE_MINUTES))
    tables = Table.objects.filter(
        status=Table.Status.OPEN, organised=False, created__lt=cutoff, matches__isnull=True
    )
    if only is not None:
        tables = tables.filter(pk=only)
    return list(
        tables.annotate(others=Count("seats", filter=~Q(seats__user=F("creator"))))
        .filter(others=0)
        .values_list("pk", flat=True)
    )


def host_seen(*, user: User, table_id: int | None = None) -> int:
    """The creator is on the page of their open table ``table_id`` (or on the lobby: all their
    open tables): refresh its last-seen time; a host back from away re-draws the lobby."""
    if not user.is_authenticated:
        return 0
    now = timezone.now()
    tables = Table.objects.filter(creator=user, status=Table.Status.OPEN)
    if table_id is not None:
        tables = tables.filter(pk=table_id)
    cutoff = now - timedelta(seconds=int(settings.GAMES_HOST_AWAY_SECONDS))
    back = tables.filter(Q(host_seen_at__isnull=True) | Q(host_seen_at__lt=cutoff)).exists()
    updated = tables.update(host_seen_at=now)
    if back:
        broadcast.lobby_changed()
    return updated


def hosts_away_announce(now: datetime | None = None) -> bool:
    """Re-draw the lobby when an open table's host went away since the last sweep."""
    now = now or timezone.now()
    edge = now - timedelta(seconds=int(settings.GAMES_HOST_AWAY_SECONDS))
    gone = Table.objects.filter(
        status=Table.Status.OPEN,
        private=False,
        host_seen_at__lt=edge,
        host_seen_at__gte=edge - timedelta(seconds=SWEEP_SECONDS),
    ).exists()
    if gone:
        broadcast.lobby_changed()
    return gone
