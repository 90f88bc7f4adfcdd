"""Deal fishing, and the bars from rated play (``docs/ratings.md``, "Deal fishing"): the one
place live play asks whether a player may play rated.

At a rated table a player could look at the dealt hand, abort, play again and repeat until the
cards suited them, or let a second account of theirs win at once. So at a rated table an abort
after the deal counts as a resignation (the seat goes on autopilot and counts as the fool), and
every rated game left too early (``games.early``: by abort, resignation or the autopilot after
timeouts before every player made ``GAMES_RATED_MIN_MOVES`` moves of their own; such a game is
not rated) goes into a ledger (``RatedQuit``, as Lichess keeps its playban ledger).
``settings.GAMES_RATED_QUITS`` of them within ``GAMES_RATED_QUIT_WINDOW_HOURS`` bar the player
from rated play (opening, joining or playing again at a rated table, joining a rated tournament,
being paired in a rated arena) for ``GAMES_RATED_BAN_MINUTES`` after the last one, doubled for
each one past the limit, at most a day. The bar is computed from the ledger, so there is no state to expire.

The staff's bar (``people.models.Sanction``, given from the moderation queue) is asked here too,
so opening, joining, playing again and the deal all pass one check with one exemption: a table
the site arranges (``Table.organised``: a tournament's, which refuses a barred player when they
register, or the move bench's) asks neither, as a refusal there would stall a round.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games import early
from games.models import Match, MatchPlayer, RatedQuit
from people import selectors as people_selectors
from play.loaded import LoadedMatch
from play.services.errors import TableError

#: The longest bar, however many games were left.
MAX_BAR = timedelta(days=1)


class RatedPlayBarred(TableError):
    """Refused: the player is barred from rated play (by the staff, or for leaving too many rated
    games right after the deal)."""


def quit_note(*, match: Match, user: User, aborted: bool) -> None:
    """Note that ``user`` left the rated ``match`` right after its deal (once per match)."""
    RatedQuit.objects.get_or_create(match=match, user=user, defaults={"aborted": aborted})


def early_quit_note(*, loaded: LoadedMatch, player: MatchPlayer) -> None:
    """Note ``player`` leaving (resigning, or timed out into the autopilot) the locked rated match
    when it is too early (``games.early.too_early``): in the ledger, once per match."""
    match = loaded.match
    if not match.table.rated or player.user.is_bot:
        return
    own = early.own_moves([match.pk]).get(match.pk, {})
    if early.too_early(own, (p.seat for p in loaded.players), int(settings.GAMES_RATED_MIN_MOVES)):
        quit_note(match=match, user=player.user, aborted=False)


def rated_bar_until(*, user: User, now: datetime | None = None) -> datetime | None:
    """Until when ``user`` may not play rated, or ``None`` when they may."""
    now = now or timezone.now()
    quits = RatedQuit.objects.filter(user=user, at__gte=_window_start(now)).order_by("-at")
    return _bar_until(list(quits.values_list("at", flat=True)), now)


def rated_barred_users(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` are barred from rated play now, by the staff or by the ledger (two
    queries, however many: an arena asks for its whole field on every pairing pass)."""
    ids = list(user_ids)
    now = timezone.now()
    times: dict[int, list[datetime]] = {}
    quits = RatedQuit.objects.filter(user_id__in=ids, at__gte=_window_start(now)).order_by("-at")
    for user_id, at in quits.values_list("user_id", "at"):
        times.setdefault(user_id, []).append(at)
    ledger = {user_id for user_id, found in times.items() if _bar_until(found, now) is not None}
    return ledger | people_selectors.rated_barred(ids)


def _window_start(now: datetime) -> datetime:
    return now - timedelta(hours=int(settings.GAMES_RATED_QUIT_WINDOW_HOURS))


def _bar_until(times: list[datetime], now: datetime) -> datetime | None:
    """The end of the bar earned by the quits at ``times`` (latest first, within the window)."""
    limit = max(1, int(settings.GAMES_RATED_QUITS))
    if len(times) < limit:
        return None
    minutes = int(settings.GAMES_RATED_BAN_MINUTES) * 2 ** min(len(times) - limit, 16)
    until = times[0] + min(timedelta(minutes=minutes), MAX_BAR)
    return until if until > now else None


def check_rated_allowed(user: User) -> None:
    """Refuse rated play (opening, joining, playing again) to a player barred by the staff or by
    the ledger (saying for how long)."""
    if people_selectors.rated_barred([user.pk]):
        raise RatedPlayBarred(_("You are barred from rated play for now."))
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


def check_seated_allowed(user_ids: Iterable[int]) -> None:
    """Refuse a rated join or deal where a seated player is barred by the staff: a bar given after
    they sat down holds the table too (the ledger's bar only closes the door they ask at)."""
    if people_selectors.rated_barred(user_ids):
        raise RatedPlayBarred(_("A player here is barred from rated play for now."))
