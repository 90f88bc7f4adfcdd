"""Reads of match history: a user's finished matches, filtered and paginated.

One row per match the user played, as their ``MatchPlayer`` row (seat, place, fool) with its
match and table joined, the user's rating change annotated, and every seat's player prefetched:
a page of history is three queries however many matches it lists (count, page, players).

Filters (all optional, combined with AND): variant, pool (``"<variant>:<kind>"``, the table
kind whether rated or not), rated, outcome (``won`` / ``out`` / ``fool`` / ``draw``, as defined
in ``games.results``), an opponent and a date range.

Speed: the user's rows come from the ``MatchPlayer.user`` index; the order is the match's
``finished_at`` (an index on ``games_match.finished_at`` belongs in ``games.models``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.core.paginator import Page, Paginator
from django.db.models import F, OuterRef, Prefetch, Q, QuerySet, Subquery

from accounts.models import User
from games.models import Match, MatchPlayer
from games.pools import pool_q
from games.results import DRAW, FOOL, OUT, WON, seat_outcome
from ratings.models import RatingChange

PAGE_SIZE = 25


@dataclass(frozen=True, slots=True)
class HistoryFilters:
    """What to keep of a user's history; ``None`` (or empty) means "any"."""

    variant: str | None = None
    pool: str | None = None
    rated: bool | None = None
    outcome: str | None = None
    opponent: int | None = None
    tournament: int | None = None
    date_from: date | None = None
    date_to: date | None = None


def _drawn_q() -> Q:
    """The player was in a drawn ending (needs the ``last_place`` annotation)."""
    return Q(match__result__draw=True) & (Q(match__rules__teams=True) | Q(place=F("last_place")))


def outcome_q(outcome: str) -> Q:
    """The database form of ``games.results.seat_outcome`` (needs ``last_place``)."""
    drawn = _drawn_q()
    teams = Q(match__rules__teams=True)
    if outcome == DRAW:
        return drawn
    if outcome == FOOL:
        return Q(fool=True) & ~drawn
    if outcome == WON:
        return Q(fool=False) & ~drawn & (Q(place=1) | teams)
    if outcome == OUT:
        return Q(fool=False) & ~drawn & Q(place__gt=1) & ~teams
    raise ValueError(f"unknown outcome {outcome!r}")


def user_history(*, user: User, filters: HistoryFilters | None = None) -> QuerySet[MatchPlayer]:
    """``user``'s finished matches, newest first, as their ``MatchPlayer`` rows.

    Each row carries ``rating_delta`` (``None`` for an unrated match) and, prefetched, its
    match's players with their users (``row.match.players.all()``)."""
    filters = filters or HistoryFilters()
    rows = (
        MatchPlayer.objects.filter(user=user, match__status=Match.Status.FINISHED)
        .select_related("match", "match__table")
        .annotate(
            rating_delta=Subquery(
                RatingChange.objects.filter(match=OuterRef("match"), user=OuterRef("user")).values("delta")[
                    :1
                ]
            )
        )
        .prefetch_related(
            Prefetch("match__players", queryset=MatchPlayer.objects.select_related("user").order_by("seat"))
        )
        .order_by("-match__finished_at", "-match_id")
    )
    if filters.variant:
        rows = rows.filter(match__rules__variant=filters.variant)
    if filters.pool:
        rows = rows.filter(pool_q(filters.pool))
    if filters.rated is not None:
        rows = rows.filter(match__table__rated=filters.rated)
    if filters.outcome:
        last_place = (
            MatchPlayer.objects.filter(match=OuterRef("match")).order_by("-place").values("place")[:1]
        )
        rows = rows.annotate(last_place=Subquery(last_place)).filter(outcome_q(filters.outcome))
    if filters.opponent:
        rows = rows.filter(
            match__in=MatchPlayer.objects.filter(user_id=filters.opponent).values("match_id")
        ).exclude(user_id=filters.opponent)
    if filters.tournament:
        rows = rows.filter(match__table__tournament_pairing__tournament_id=filters.tournament)
    if filters.date_from:
        rows = rows.filter(match__finished_at__date__gte=filters.date_from)
    if filters.date_to:
        rows = rows.filter(match__finished_at__date__lte=filters.date_to)
    return rows


def history_page(
    *, user: User, filters: HistoryFilters | None = None, page: int | str = 1
) -> Page[MatchPlayer]:
    """One page of ``user_history`` (an out-of-range page number gives the last page)."""
    return Paginator(user_history(user=user, filters=filters), PAGE_SIZE).get_page(page)


def row_outcome(row: MatchPlayer) -> str:
    """``won`` / ``out`` / ``fool`` / ``draw`` of a history row (from the stored result)."""
    return seat_outcome(
        row.match.result or {"places": []}, row.seat, teams=bool(row.match.rules.get("teams"))
    )


def user_opponents(*, user: User) -> QuerySet[User]:
    """Everyone ``user`` has finished a match with (for the opponent filter), by name."""
    matches = MatchPlayer.objects.filter(user=user, match__status=Match.Status.FINISHED).values("match_id")
    return (
        User.objects.filter(match_players__match_id__in=matches)
        .exclude(pk=user.pk)
        .distinct()
        .order_by("display_name")
    )


def match_for_record(*, match_id: int) -> Match:
    """A finished match with its table, players (with users) and rating changes (or why it has
    none: ``ratings.farming``), for its page."""
    return (
        Match.objects.filter(status=Match.Status.FINISHED)
        .select_related("table", "unrated")
        .prefetch_related(
            Prefetch("players", queryset=MatchPlayer.objects.select_related("user").order_by("seat")),
            Prefetch("rating_changes", queryset=RatingChange.objects.order_by("user_id")),
        )
        .get(pk=match_id)
    )
