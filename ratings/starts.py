"""Where a rating starts: people at ``START_RATING``, each bot level at its measured strength.

Bots used to start at 1500 like a newcomer, so the first people to play the random bot (which
loses about 97 games in 100 to the easy one) took points from a 1500 that was never real. Each
level now starts where the levels' games against each other put it, and is rated like anyone
from there (``ratings.services``).

The measurement: ``python -m tools.bot_matches`` plays mirrored deals of two-player podkidnoy
between two levels and reports the first level's score with a 95% interval and its logistic Elo
reading. ``MEASUREMENTS`` lists every run used; ``fit_start_ratings`` turns them into one rating
per level by weighted least squares on the Elo
differences (each run weighted by the inverse square of its interval's width in Elo), anchored
at the easy bot = 1500: the easy bot plays the cheapest legal card, as a newcomer who knows the
rules would, and 1500 is what the club assumes of a newcomer. ``BOT_START_RATINGS`` is that fit,
rounded to 5 (``tests/ratings/test_bot_starts.py`` checks it still follows from the list).

The strong and medium bots search for a fixed wall-clock time, and the machine was shared
(load 5-10) during the runs, so their numbers are a floor. Their ratings move with their games
anyway: the start only decides where they begin, and every pool starts them at the same place
(docs/bots.md's runs of strong against easy in perevodnoy, circle and teams gave +168 to +263,
around the +255 fitted here for podkidnoy).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from accounts.models import User
from ratings.elo import START_RATING


@dataclass(frozen=True, slots=True)
class Measurement:
    """One run of ``tools.bot_matches``: ``a`` against ``b``, ``a``'s score and its 95% interval."""

    a: str
    b: str
    games: int
    score: float
    ci_low: float
    ci_high: float
    when: str

    @property
    def elo(self) -> float:
        """The logistic reading of the score: ``a``'s Elo advantage over ``b``."""
        return -400.0 * math.log10(1.0 / self.score - 1.0)

    @property
    def elo_sigma(self) -> float:
        """The standard error of ``elo``, from the interval (the slope of the logistic curve)."""
        score_sigma = (self.ci_high - self.ci_low) / (2 * 1.96)
        return score_sigma * 400.0 / (math.log(10) * self.score * (1.0 - self.score))


#: Every run the starts are fitted to: two-player podkidnoy, 36 cards, mirrored deals.
MEASUREMENTS: tuple[Measurement, ...] = (
    # docs/bots.md's ladder table (load 5-7, --seed 1).
    Measurement("easy", "random", 2000, 0.968, 0.961, 0.976, "ladder table"),
    Measurement("medium", "easy", 300, 0.647, 0.592, 0.701, "ladder table"),
    Measurement("strong", "easy", 400, 0.797, 0.760, 0.835, "ladder table"),
    Measurement("strong", "medium", 100, 0.735, 0.654, 0.816, "ladder table"),
    # Run again for this table of starts (commit 07654f2's engine, load 7-10, --seed 7).
    Measurement("easy", "random", 2000, 0.9695, 0.9622, 0.9768, "2026-12, seed 7"),
    Measurement("medium", "easy", 300, 0.6783, 0.6308, 0.7259, "2026-12, seed 7"),
    Measurement("strong", "medium", 100, 0.7100, 0.6341, 0.7859, "2026-12, seed 7"),
)

#: The level whose start is fixed, and where.
ANCHOR_LEVEL = "easy"
ANCHOR_RATING = START_RATING


def fit_start_ratings(
    measurements: Sequence[Measurement], *, anchor: str = ANCHOR_LEVEL, at: float = ANCHOR_RATING
) -> dict[str, float]:
    """One rating per level: weighted least squares on the runs' Elo differences, ``anchor`` at ``at``.

    >>> runs = [Measurement("b", "a", 100, 0.64, 0.6, 0.68, ""),
    ...         Measurement("c", "b", 100, 0.64, 0.6, 0.68, "")]
    >>> {level: round(r) for level, r in fit_start_ratings(runs, anchor="a", at=1000).items()}
    {'a': 1000, 'b': 1100, 'c': 1200}
    """
    levels = sorted(({m.a for m in measurements} | {m.b for m in measurements}) - {anchor})
    index = {level: i for i, level in enumerate(levels)}
    size = len(levels)
    normal = [[0.0] * size for _ in range(size)]
    right = [0.0] * size
    for m in measurements:
        weight = 1.0 / m.elo_sigma**2
        # The run says rating(a) - rating(b) = elo; the anchor's rating is the known ``at``.
        terms = [(m.a, 1.0), (m.b, -1.0)]
        known = sum(sign * at for level, sign in terms if level == anchor)
        unknown = [(index[level], sign) for level, sign in terms if level != anchor]
        for i, si in unknown:
            right[i] += weight * si * (m.elo - known)
            for j, sj in unknown:
                normal[i][j] += weight * si * sj
    solution = _solve(normal, right)
    return {anchor: at, **{level: solution[index[level]] for level in levels}}


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the system is a handful of levels)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


#: Each bot level's first rating in every pool: ``fit_start_ratings(MEASUREMENTS)``, rounded to 5.
BOT_START_RATINGS: Mapping[str, float] = {
    "random": 905.0,
    "easy": 1500.0,
    "medium": 1610.0,
    "strong": 1755.0,
}


def start_rating(user: User) -> float:
    """The rating ``user`` has before their first game in a pool."""
    if user.is_bot:
        return BOT_START_RATINGS.get(user.bot_level, START_RATING)
    return START_RATING
