"""Deal fishing, and the bar from rated play (``README.md`` §Ratings, "Deal fishing").

At a rated table a player could look at the dealt hand, abort, play again and repeat until the
cards suited them. So at a rated table an abort after the deal counts as a resignation (the seat
goes on autopilot and counts as the fool: ratings move), and every rated game left right after
the deal, by abort or by a resignation before the first move, goes into a ledger (``RatedQuit``,
as Lichess keeps its playban ledger). ``settings.GAMES_RATED_QUITS`` of them within
``GAMES_RATED_QUIT_WINDOW_HOURS`` bar the player from rated play (opening, joining or playing again
at a rated table) for ``GAMES_RATED_BAN_MINUTES`` after the last one, doubled for each one past
the limit, at most a day. The bar is computed from the ledger, so there is no state to expire.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import ngettext

from accounts.models import User
from games.live.services.errors import TableError
from games.models import Match, RatedQuit

#: The longest bar, however many games were left.
MAX_BAR = timedelta(days=1)


class RatedPlayBarred(TableError):
    """Refused: the player left too many rated games right after the deal."""


def quit_record(*, match: Match, user: User, aborted: bool) -> None:
    """Note that ``user`` left the rated ``match`` right after its deal (once per match)."""
    RatedQuit.objects.get_or_create(match=match, user=user, defaults={"aborted": aborted})


def rated_bar_until(*, user: User, now: datetime | None = None) -> datetime | None:
    """Until when ``user`` may not play rated, or ``None`` when they may."""
    now = now or timezone.now()
    limit = max(1, int(settings.GAMES_RATED_QUITS))
    since = now - timedelta(hours=int(settings.GAMES_RATED_QUIT_WINDOW_HOURS))
    quits = RatedQuit.objects.filter(user=user, at__gte=since).order_by("-at")
    times = list(quits.values_list("at", flat=True))
    if len(times) < limit:
        return None
    minutes = int(settings.GAMES_RATED_BAN_MINUTES) * 2 ** min(len(times) - limit, 16)
    until = times[0] + min(timedelta(minutes=minutes), MAX_BAR)
    return until if until > now else None


def check_rated_allowed(user: User) -> None:
    """Refuse rated play to a barred player, saying for how long."""
    until = rated_bar_until(user=user)
    if until is None:
        return
    minutes = max(1, -(-int((until - timezone.now()).total_seconds()) // 60))
    raise RatedPlayBarred(
        ngettext(
            "You left too many rated games right after the deal: rated play is closed to you for "
            "%(minutes)d more minute.",
            "You left too many rated games right after the deal: rated play is closed to you for "
            "%(minutes)d more minutes.",
            minutes,
        )
        % {"minutes": minutes}
    )
