"""Reads of pairing: the grid's live counts, a player's waiting seek, challenges and alerts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Q
from django.utils import timezone

from accounts.models import User
from games.models import Match, MatchPlayer
from pairing.models import Alerts, Challenge, Seek
from pairing.setups import Setup


@dataclass(frozen=True, slots=True)
class Counts:
    """Players waiting in the pool and playing in matches of each setup (by ``Setup.key``)."""

    waiting: Counter[str]
    playing: Counter[str]


def grid_counts() -> Counts:
    """Two grouped queries, whatever the number of setups: every socket of the grid asks this."""
    waiting: Counter[str] = Counter()
    for seek in (
        Seek.objects.filter(status=Seek.Status.WAITING)
        .values("variant", "players", "teams", "deck", "turn_seconds", "rated")
        .annotate(n=Count("id"))
    ):
        setup = Setup(
            seek["variant"], seek["players"], seek["teams"], seek["deck"], seek["turn_seconds"], seek["rated"]
        )
        waiting[setup.key] += seek["n"]
    playing: Counter[str] = Counter()
    for row in (
        MatchPlayer.objects.filter(match__status=Match.Status.ACTIVE, user__is_bot=False)
        .values(
            "match__rules__variant",
            "match__rules__players",
            "match__rules__teams",
            "match__rules__deck",
            "match__table__turn_seconds",
            "match__table__rated",
        )
        .annotate(n=Count("id"))
    ):
        setup = Setup(
            str(row["match__rules__variant"]),
            int(row["match__rules__players"]),
            bool(row["match__rules__teams"]),
            int(row["match__rules__deck"]),
            int(row["match__table__turn_seconds"]),
            bool(row["match__table__rated"]),
        )
        playing[setup.key] += row["n"]
    return Counts(waiting, playing)


def waiting_seek(*, user: User | AnonymousUser) -> Seek | None:
    """The seek ``user`` is waiting with, if any."""
    if not user.is_authenticated:
        return None
    return Seek.objects.filter(user=user, status=Seek.Status.WAITING).first()


def open_challenges(*, user: User | AnonymousUser) -> list[Challenge]:
    """Challenges to or from ``user`` still waiting for an answer."""
    if not user.is_authenticated:
        return []
    return list(
        Challenge.objects.filter(
            Q(challenger=user) | Q(challenged=user),
            status=Challenge.Status.PENDING,
            expires_at__gt=timezone.now(),
        ).select_related("challenger", "challenged")
    )


def alerts_of(user: User | AnonymousUser) -> Alerts:
    """The user's alert settings (unsaved defaults when they never chose)."""
    if user.is_authenticated:
        found = Alerts.objects.filter(user=user).first()
        if found is not None:
            return found
        return Alerts(user_id=user.pk)
    return Alerts()


def challenge_initial(challenger: User, challenged: User, match_id: str | None) -> dict[str, object]:
    """A challenge form's first values: the options of the match named (one the challenger
    played), else of the last match the two played together, else the defaults."""
    both = MatchPlayer.objects.filter(user=challenged).values("match_id")
    mine = Match.objects.filter(players__user=challenger).select_related("table")
    match = None
    if match_id and str(match_id).isdigit():
        match = mine.filter(pk=int(match_id)).first()
    if match is None:
        match = mine.filter(pk__in=both).order_by("-started_at").first()
    if match is None:
        return {}
    rules = match.rules or {}
    return {
        "variant": rules.get("variant", "podkidnoy"),
        "deck": rules.get("deck", 36),
        "turn_seconds": match.table.turn_seconds,
        "rated": match.table.rated,
    }
