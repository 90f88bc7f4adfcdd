"""Ratings nobody can farm (``docs/rules.md`` §7, "Games that do not count").

One person with two accounts could hand rating points from one to the other: a rated challenge
the second account resigns at once, again and again. Two rules close that, as Lichess does:

* **Too early** (``games.early``): a rated game decided by a forfeit before every player made
  ``GAMES_RATED_MIN_MOVES`` moves of their own is not rated.
* **Repeated pairs**: once two accounts have had ``RATINGS_PAIR_GAMES`` rated games together
  (games that moved ratings) within ``RATINGS_PAIR_WINDOW_HOURS``, a further game in which they
  both play moves no rating until the oldest of those leaves the window. Any two players of a
  table count as a pair, so a 2 vs 2 or a table of three is held the same way.

``unrated_reason`` takes both decisions for one match from plain data (pure); ``match_reason``
reads that data for a match about to be rated. What a match did is stored (``UnratedMatch``), so
the recompute replays the decisions rather than taking them again.

The staff's queue of suspicious pairs (``pair_flags``, pure; its query in ``ratings.selectors``)
lists pairs with many rated games together in a window, with how one-sided their results were
and how many of their games ended too early: what boosting looks like.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from itertools import combinations
from typing import Any

from django.conf import settings

from games import early
from games.models import Match
from ratings.models import RatingChange, UnratedMatch

EARLY = UnratedMatch.Reason.EARLY
REPEAT = UnratedMatch.Reason.REPEAT

Pair = tuple[int, int]


def pairs_of(users: Iterable[int]) -> list[Pair]:
    """Every pair of distinct players, each as ``(lower id, higher id)``.

    >>> pairs_of([3, 1, 2])
    [(1, 2), (1, 3), (2, 3)]
    """
    return list(combinations(sorted(set(users)), 2))


def repeated_pair(users: Iterable[int], earlier: Iterable[Iterable[int]], limit: int) -> bool:
    """Whether two of ``users`` already played ``limit`` rated games together among ``earlier``
    (the players of each rated game in the window).

    >>> repeated_pair([1, 2], [[1, 2], [1, 2, 3]], 2)
    True
    >>> repeated_pair([1, 2], [[1, 2], [2, 3]], 2)
    False
    """
    counts = Counter(pair for game in earlier for pair in pairs_of(game))
    return any(counts[pair] >= limit for pair in pairs_of(users))


def unrated_reason(
    *,
    result: Mapping[str, Any],
    seats: Mapping[int, int],
    own: Mapping[int, int],
    earlier: Iterable[Iterable[int]],
    min_moves: int,
    pair_limit: int,
) -> str | None:
    """Why a finished rated match moves no rating (``EARLY`` or ``REPEAT``), or ``None``.
    ``seats``: seat -> user id; ``own``: seat -> moves of its own; ``earlier``: the players of
    each game in the pair window that moved ratings.

    >>> unrated_reason(result={"reason": "forfeit"}, seats={0: 1, 1: 2}, own={0: 1, 1: 1},
    ...                earlier=[], min_moves=3, pair_limit=5)
    'early'
    >>> unrated_reason(result={"reason": "fool"}, seats={0: 1, 1: 2}, own={}, earlier=[[1, 2]] * 5,
    ...                min_moves=3, pair_limit=5)
    'repeat'
    """
    if early.ended_too_early(result, own, seats, min_moves):
        return str(EARLY)
    if repeated_pair(seats.values(), earlier, pair_limit):
        return str(REPEAT)
    return None


def match_reason(match: Match, seats: Mapping[int, int]) -> str | None:
    """``unrated_reason`` of a finished match about to be rated (``seats``: seat -> user id),
    from its log and the rated games its players had in the window before it ended."""
    assert match.result is not None and match.finished_at is not None
    since = match.finished_at - timedelta(hours=int(settings.RATINGS_PAIR_WINDOW_HOURS))
    rows = (
        RatingChange.objects.filter(
            user_id__in=set(seats.values()),
            match__finished_at__gte=since,
            match__finished_at__lte=match.finished_at,
        )
        .exclude(match=match)
        .values_list("match_id", "user_id")
    )
    earlier: dict[int, set[int]] = {}
    for match_id, user_id in rows:
        earlier.setdefault(match_id, set()).add(user_id)
    return unrated_reason(
        result=match.result,
        seats=seats,
        own=early.own_moves([match.pk]).get(match.pk, {}),
        earlier=earlier.values(),
        min_moves=int(settings.GAMES_RATED_MIN_MOVES),
        pair_limit=int(settings.RATINGS_PAIR_GAMES),
    )


# --- the staff's queue --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairGame:
    """One finished game of a rated table in which both players of a pair played: who of the two
    came out ahead (``None``: level), and whether it stopped too early."""

    pair: Pair
    ahead: int | None
    early: bool


@dataclass(frozen=True, slots=True)
class PairFlag:
    """A pair in the staff's queue: their rated games together in the window, how many each came
    out ahead in, how many ended too early, and the share of the decided games the leader won."""

    pair: Pair
    games: int
    wins: tuple[int, int]
    early: int

    @property
    def one_sided(self) -> float:
        decided = sum(self.wins)
        return max(self.wins) / decided if decided else 0.0


def pair_flags(
    games: Sequence[PairGame], *, min_games: int, one_sided: float, early_share: float
) -> list[PairFlag]:
    """The suspicious pairs among ``games``: at least ``min_games`` together, and either one of
    them ahead in at least the ``one_sided`` share of the decided games or at least the
    ``early_share`` of them too early. Most games first.

    >>> games = [PairGame((1, 2), 2, True)] * 4 + [PairGame((1, 3), 1, False), PairGame((1, 3), 3, False)]
    >>> flags = pair_flags(games, min_games=2, one_sided=0.8, early_share=0.5)
    >>> [(f.pair, f.games, f.wins, f.early) for f in flags]
    [((1, 2), 4, (0, 4), 4)]
    """
    grouped: dict[Pair, list[PairGame]] = {}
    for game in games:
        grouped.setdefault(game.pair, []).append(game)
    flags = []
    for pair, rows in grouped.items():
        if len(rows) < min_games:
            continue
        wins = (sum(g.ahead == pair[0] for g in rows), sum(g.ahead == pair[1] for g in rows))
        flag = PairFlag(pair, len(rows), wins, sum(g.early for g in rows))
        if flag.one_sided >= one_sided or flag.early >= early_share * flag.games:
            flags.append(flag)
    return sorted(flags, key=lambda f: (-f.games, f.pair))
