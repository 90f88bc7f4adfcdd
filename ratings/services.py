"""Applying rated matches to ratings, exactly once and in match-end order.

Pools: a rating belongs to a pool, ``"<variant>:<kind>"`` with kind ``2`` (two players), ``3-6``
(three to six players, each for themselves) or ``2v2`` (teams), because those are different
games: a head-to-head duel, a race not to be last among several, and a partnership. Within a pool
the options are the variant's defaults (``games.pools.rated_pool`` refuses anything else at a
rated table), so every rating in a pool measures the same game.

The arithmetic is ``ratings.elo``; this module decides what goes in: the stored ``Match.result``
(forfeits already at the bottom, so a leaver counts as the fool), each player's rating and games
played in the pool before the match. A rated match that ended too early, or between players who
had too many rated games together lately (``ratings.farming``), moves no rating: it gets an
``UnratedMatch`` row instead of its ``RatingChange`` rows, and counts as done.

Exactly once: ``match_rate`` takes one lock for all rating writes (a PostgreSQL advisory lock;
SQLite's immediate transactions already admit one writer), returns at once when the match already
has its ``RatingChange`` rows, and otherwise applies every finished rated match that ended up to
this one and is still unrated, oldest first. So a task delivered twice changes nothing, and a
task that overtakes an earlier match's task applies that earlier match first. The unique
``(match, user)`` on ``RatingChange`` is the last line of defence. ``ratings_recompute`` replays
the same ``RatingBook`` over the whole history, in the order the matches were applied, and must
land on the stored ratings.

That applied order is match-end order except in one race: a match whose transaction commits a few
milliseconds after a later-ending match has already been rated was invisible to that match's task,
so it is applied after it. Its players' ratings then rest on the later match's result, and
``RatingChange.seq`` records that order; replaying by ``seq`` reproduces the stored ratings
exactly, where replaying by ``finished_at`` would not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Max, Min, Prefetch, Q, QuerySet

from games.engine import Rules
from games.models import Match, MatchPlayer
from games.pools import rated_pool
from games.results import DRAW, FOOL, WON, seat_outcome
from ratings.elo import START_RATING, k_factor, multiplayer_changes, team_changes
from ratings.farming import match_reason
from ratings.models import Rating, RatingChange, UnratedMatch
from ratings.starts import start_rating

#: The advisory-lock key of rating writes on PostgreSQL ("elo" in ASCII).
RATINGS_LOCK_KEY = 0x656C6F

#: A match's players with their users: whether each is a bot, and of which level, sets its start.
_PLAYERS_WITH_USERS = Prefetch("players", queryset=MatchPlayer.objects.select_related("user"))


def match_pool(match: Match) -> str | None:
    """The pool a finished match counts in, or ``None`` for a casual (or unratable) match."""
    if not match.table.rated:
        return None
    return rated_pool(Rules.from_dict(match.rules))


@dataclass
class Standing:
    """A player's rating in a pool as the book keeps it (mirrors a ``Rating`` row)."""

    rating: float = START_RATING
    games: int = 0
    wins: int = 0
    fools: int = 0
    draws: int = 0
    best: float = START_RATING

    @classmethod
    def of(cls, row: Rating) -> Standing:
        return cls(row.rating, row.games, row.wins, row.fools, row.draws, row.best)

    @classmethod
    def new(cls, start: float) -> Standing:
        """A player's standing before their first game in a pool (a bot's: its level's start)."""
        return cls(rating=start, best=start)


@dataclass(frozen=True, slots=True)
class Change:
    """One player's change from one match (becomes a ``RatingChange`` row)."""

    user_id: int
    before: float
    after: float
    k: int
    games_before: int
    outcome: str

    @property
    def delta(self) -> float:
        return self.after - self.before


def match_changes(
    result: Mapping[str, Any], *, teams: bool, ratings: Mapping[int, float], games: Mapping[int, int]
) -> dict[int, float]:
    """Rating changes per seat from a stored result (pure; ``ratings``/``games`` keyed by seat).

    Multiplayer: the finishing-order groups of ``result["places"]`` (the fool, or every leaver,
    last; a drawn game's remaining players share the last group). Teams: seats 0 & 2 against
    1 & 3, scored 1 / 0.5 / 0 from ``losing_team`` and ``draw``.

    >>> match_changes({"places": [[1], [0]], "fool": 0, "draw": False}, teams=False,
    ...               ratings={0: 1500, 1: 1500}, games={0: 0, 1: 0})
    {0: -20.0, 1: 20.0}
    """
    if not teams:
        return multiplayer_changes(ratings, result["places"], games)
    losing = set(result.get("losing_team") or ())
    if result.get("draw"):
        score_a = 0.5
    else:
        score_a = 0.0 if losing == {0, 2} else 1.0
    return team_changes(ratings, [0, 2], [1, 3], score_a, games)


class RatingBook:
    """Standings by ``(user_id, pool)``; ``apply`` plays one match into them.

    The incremental service fills it with the rows of one match's players; the recompute fills
    it from nothing with the whole history. Both then apply matches through the same code.
    ``starts`` gives the first rating of players who have none yet in a pool (bots start at
    their level's measured strength, ``ratings.starts``); anyone else starts at ``START_RATING``.
    """

    def __init__(
        self,
        standings: Mapping[tuple[int, str], Standing] | None = None,
        starts: Mapping[int, float] | None = None,
    ) -> None:
        self.standings: dict[tuple[int, str], Standing] = dict(standings or {})
        self.starts: dict[int, float] = dict(starts or {})

    def standing(self, user_id: int, pool: str) -> Standing:
        key = (user_id, pool)
        if key not in self.standings:
            self.standings[key] = Standing.new(self.starts.get(user_id, START_RATING))
        return self.standings[key]

    def apply(
        self,
        *,
        pool: str,
        result: Mapping[str, Any],
        teams: bool,
        seats: Mapping[int, int],
        starts: Mapping[int, float] | None = None,
    ) -> list[Change]:
        """Apply a match (``seats``: seat -> user id; ``starts``: first ratings of its players,
        user id -> rating, for those new to the pool) and return each player's change."""
        self.starts.update(starts or {})
        before = {seat: self.standing(user_id, pool) for seat, user_id in seats.items()}
        ratings = {seat: s.rating for seat, s in before.items()}
        games = {seat: s.games for seat, s in before.items()}
        deltas = match_changes(result, teams=teams, ratings=ratings, games=games)
        changes = []
        for seat, user_id in sorted(seats.items()):
            standing = before[seat]
            outcome = seat_outcome(result, seat, teams=teams)
            change = Change(
                user_id=user_id,
                before=standing.rating,
                after=standing.rating + deltas[seat],
                k=k_factor(standing.games),
                games_before=standing.games,
                outcome=outcome,
            )
            standing.rating = change.after
            standing.games += 1
            standing.wins += outcome == WON
            standing.fools += outcome == FOOL
            standing.draws += outcome == DRAW
            standing.best = max(standing.best, standing.rating)
            changes.append(change)
        return changes


def rated_matches() -> QuerySet[Match]:
    """Finished matches of rated tables in match-end order (the order ratings are applied in),
    but for those found not to count (``UnratedMatch``)."""
    return (
        Match.objects.filter(status=Match.Status.FINISHED, table__rated=True, finished_at__isnull=False)
        .filter(unrated__isnull=True)
        .select_related("table")
        .order_by("finished_at", "pk")
    )


def applied_order() -> QuerySet[Match]:
    """Rated matches in the order their ratings were applied (``RatingChange.seq``; see the module
    docstring for when that differs from match-end order), then any still waiting for their task
    in match-end order, as their tasks will apply them."""
    return (
        rated_matches()
        .annotate(applied=Min("rating_changes__seq"))
        .order_by(F("applied").asc(nulls_last=True), "finished_at", "pk")
    )


def match_rate(match_id: int) -> bool:
    """Apply a finished rated match's rating changes, once; returns whether anything changed.

    Unrated, unfinished or already rated matches change nothing. Earlier-ended rated matches
    still unrated (a lost or slower task) are applied first, so the order is always match-end
    order. One that does not count (``ratings.farming``) is marked so and changes nothing."""
    with transaction.atomic():
        _lock_ratings()
        match = Match.objects.select_related("table").filter(pk=match_id).first()
        if match is None or match.status != Match.Status.FINISHED or match.finished_at is None:
            return False
        if match_pool(match) is None or RatingChange.objects.filter(match=match).exists():
            return False
        if UnratedMatch.objects.filter(match=match).exists():
            return False
        pending = (
            rated_matches()
            .filter(Q(finished_at__lt=match.finished_at) | Q(finished_at=match.finished_at, pk__lte=match.pk))
            .exclude(pk__in=RatingChange.objects.values("match_id"))
            .prefetch_related(_PLAYERS_WITH_USERS)
        )
        seq = RatingChange.objects.aggregate(last=Max("seq"))["last"] or 0
        applied = False
        for earlier in pending:
            if match_pool(earlier) is not None:
                seq += 1
                _apply(earlier, seq)
                applied = True
        return applied


def _starts(match: Match) -> dict[int, float]:
    """User id -> the rating each player of ``match`` would start a pool with."""
    return {player.user_id: start_rating(player.user) for player in match.players.all()}


def _apply(match: Match, seq: int) -> None:
    """Write one match's changes: lock its players' rows, play the book, save rows and changes.
    A player new to the pool (no row yet) starts at ``start_rating``: a bot at its level's."""
    pool = match_pool(match)
    assert pool is not None and match.result is not None
    seats = {player.seat: player.user_id for player in match.players.all()}
    reason = match_reason(match, seats)
    if reason is not None:
        UnratedMatch.objects.create(match=match, reason=reason)
        return
    rows = {
        row.user_id: row
        for row in Rating.objects.select_for_update().filter(pool=pool, user_id__in=seats.values())
    }
    book = RatingBook({(user_id, pool): Standing.of(row) for user_id, row in rows.items()}, _starts(match))
    changes = book.apply(pool=pool, result=match.result, teams=bool(match.rules.get("teams")), seats=seats)
    for change in changes:
        standing = book.standing(change.user_id, pool)
        row = rows.get(change.user_id) or Rating(user_id=change.user_id, pool=pool)
        _copy(standing, row)
        row.save()
    RatingChange.objects.bulk_create(
        RatingChange(
            match=match,
            user_id=change.user_id,
            pool=pool,
            seq=seq,
            before=change.before,
            after=change.after,
            delta=change.delta,
            k=change.k,
            games_before=change.games_before,
            outcome=change.outcome,
        )
        for change in changes
    )


def _copy(standing: Standing, row: Rating) -> None:
    row.rating = standing.rating
    row.games = standing.games
    row.wins = standing.wins
    row.fools = standing.fools
    row.draws = standing.draws
    row.best = standing.best


def _lock_ratings() -> None:
    """Serialise rating writes until the transaction ends (see the module docstring)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK_KEY])


# --- recomputation ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difference:
    """A stored rating that the history does not reproduce (``None``: no such row / standing)."""

    user_id: int
    pool: str
    stored: Standing | None
    recomputed: Standing | None


def ratings_recompute() -> RatingBook:
    """Every standing recomputed from the history of rated matches, in the order they were applied."""
    book = RatingBook()
    for match in applied_order().prefetch_related(_PLAYERS_WITH_USERS):
        pool = match_pool(match)
        if pool is None or match.result is None:
            continue
        seats = {player.seat: player.user_id for player in match.players.all()}
        teams = bool(match.rules.get("teams"))
        book.apply(pool=pool, result=match.result, teams=teams, seats=seats, starts=_starts(match))
    return book


def ratings_differences(book: RatingBook, *, tolerance: float = 1e-6) -> list[Difference]:
    """Where the stored ``Rating`` rows and ``book`` disagree (rows missing on either side too)."""
    stored = {(row.user_id, row.pool): Standing.of(row) for row in Rating.objects.all()}
    differences = []
    for key in sorted(set(stored) | set(book.standings)):
        mine, theirs = stored.get(key), book.standings.get(key)
        if mine is None or theirs is None or not _same(mine, theirs, tolerance):
            differences.append(Difference(key[0], key[1], mine, theirs))
    return differences


def _same(a: Standing, b: Standing, tolerance: float) -> bool:
    counts = (a.games, a.wins, a.fools, a.draws) == (b.games, b.wins, b.fools, b.draws)
    return counts and abs(a.rating - b.rating) <= tolerance and abs(a.best - b.best) <= tolerance
