"""Reads of ratings for pages: leaderboards, a user's ratings and their history points, and the
staff's queue of suspicious pairs."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from games.models import Match, MatchPlayer
from ratings.elo import PROVISIONAL_GAMES
from ratings.farming import Pair, PairFlag, PairGame, pair_flags, pairs_of
from ratings.models import Rating, RatingChange, UnratedMatch

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


# --- the staff's queue of suspicious pairs ------------------------------------------------------

#: The queue looks at the rated games of the last this many days.
PAIRS_WINDOW_DAYS = 7
#: A pair enters the queue with at least this many rated games together in the window...
PAIRS_MIN_GAMES = 5
#: ...and one of them ahead in at least this share of their decided games,
PAIRS_ONE_SIDED = 0.8
#: or at least this share of their games left too early (``games.early``).
PAIRS_EARLY_SHARE = 0.4


@dataclass(frozen=True, slots=True)
class SuspiciousPair:
    """A line of the staff's queue: the pair's flag (``ratings.farming.PairFlag``) and the two
    accounts, the one ahead more often first."""

    flag: PairFlag
    leader: User
    other: User
    leader_wins: int
    other_wins: int


def suspicious_pairs(*, now: datetime | None = None) -> list[SuspiciousPair]:
    """Pairs of accounts whose rated games together over the last ``PAIRS_WINDOW_DAYS`` look like
    boosting (``ratings.farming.pair_flags``): many games, one-sided results, quick exits. Three
    queries, computed when the staff open the page."""
    since = (now or timezone.now()) - timedelta(days=PAIRS_WINDOW_DAYS)
    rows = MatchPlayer.objects.filter(
        match__table__rated=True, match__status=Match.Status.FINISHED, match__finished_at__gte=since
    ).values_list("match_id", "user_id", "place")
    matches: dict[int, dict[int, int | None]] = defaultdict(dict)
    for match_id, user_id, place in rows:
        matches[match_id][user_id] = place
    early = set(
        UnratedMatch.objects.filter(match_id__in=list(matches), reason=UnratedMatch.Reason.EARLY).values_list(
            "match_id", flat=True
        )
    )
    games = [
        PairGame(pair, _ahead(pair, places), match_id in early)
        for match_id, places in matches.items()
        for pair in pairs_of(places)
    ]
    flags = pair_flags(
        games, min_games=PAIRS_MIN_GAMES, one_sided=PAIRS_ONE_SIDED, early_share=PAIRS_EARLY_SHARE
    )
    users = User.objects.in_bulk({user_id for flag in flags for user_id in flag.pair})
    found = []
    for flag in flags:
        (first, second), (first_wins, second_wins) = flag.pair, flag.wins
        if second_wins > first_wins:
            first, second, first_wins, second_wins = second, first, second_wins, first_wins
        found.append(SuspiciousPair(flag, users[first], users[second], first_wins, second_wins))
    return found


def _ahead(pair: Pair, places: dict[int, int | None]) -> int | None:
    """Which of the pair finished ahead of the other (a lower place), or ``None`` when level."""
    a, b = (places.get(user_id) or 0 for user_id in pair)
    if a == b:
        return None
    return pair[0] if a < b else pair[1]
