"""Reads of ratings for pages: leaderboards, a user's ratings and their history points."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from accounts.models import User
from ratings.elo import PROVISIONAL_GAMES
from ratings.models import Rating, RatingChange

LEADERBOARD_PAGE_SIZE = 50
PROVISIONAL_SHOWN = 50


def leaderboard_page(*, pool: str, page: int | str = 1) -> Page[Rating]:
    """Established ratings of people in ``pool`` (at least ``PROVISIONAL_GAMES`` games), best
    first. Bots are listed apart (``bot_ratings``)."""
    rows = (
        Rating.objects.filter(pool=pool, games__gte=PROVISIONAL_GAMES, user__is_bot=False)
        .select_related("user")
        .order_by("-rating", "user_id")
    )
    return Paginator(rows, LEADERBOARD_PAGE_SIZE).get_page(page)


def provisional_ratings(*, pool: str, limit: int = PROVISIONAL_SHOWN) -> QuerySet[Rating]:
    """Provisional ratings of people in ``pool`` (fewer games), listed apart: best first,
    ``limit`` rows."""
    return (
        Rating.objects.filter(pool=pool, games__lt=PROVISIONAL_GAMES, user__is_bot=False)
        .select_related("user")
        .order_by("-rating", "user_id")[:limit]
    )


def bot_ratings(*, pool: str) -> QuerySet[Rating]:
    """The bots' ratings in ``pool``, best first: rated like anyone, listed apart from people (a
    handful of rows: one per bot account that has played the pool)."""
    return (
        Rating.objects.filter(pool=pool, user__is_bot=True)
        .select_related("user")
        .order_by("-rating", "user_id")
    )


def user_ratings(*, user: User) -> QuerySet[Rating]:
    """``user``'s rating in every pool they have played, most games first."""
    return Rating.objects.filter(user=user).order_by("-games", "pool")


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A user's rating after one rated match."""

    match_id: int
    rating: float
    delta: float
    at: datetime | None


def user_rating_points(*, user: User) -> dict[str, list[HistoryPoint]]:
    """Pool -> the rating after each of ``user``'s rated matches, in the order applied (one query)."""
    points: dict[str, list[HistoryPoint]] = defaultdict(list)
    changes = (
        RatingChange.objects.filter(user=user)
        .order_by("seq")
        .values_list("pool", "match_id", "after", "delta", "match__finished_at")
    )
    for pool, match_id, after, delta, at in changes:
        points[pool].append(HistoryPoint(match_id, after, delta, at))
    return dict(points)
