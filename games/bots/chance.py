"""The review's chance as shown to a player: the search's estimate made true for players of their ratings.

The review's search (:mod:`games.bots.assess`) estimates a move's chance of not being the fool
"if both of you played on like the search's playouts". Pooled over both seats that is about
right, but in an uneven game it is wrong for each player: the weaker one does worse than the
playouts assume and the stronger one better. So the number the review page shows goes through a
map of the raw chance and the seat's rating edge (its rating minus the mean of the others', when
the game was played)::

    shown = sigmoid(a + b * logit(raw) + c * edge / 400)

The labels (good, inaccuracy, mistake, blunder) stay on the raw chances' drops: they judge a
decision against the best move in the same position, for which the map would change nothing but
the scale.

The constants are a maximum-likelihood fit (the outcome a soft label: not the fool 1, the fool
0, a draw a half) over every decision of both seats of 190 two-player podkidnoy bot games
reviewed at 200 iterations, the seats' ratings the levels' starts (``ratings.starts``): medium
against strong (40), easy against medium (60), medium against medium (30), easy against easy
(60), the levels swapping seats each game::

    python -m tools.review_seat_calibration collect --a medium --b strong --games 40 --seed fit --out f
    python -m tools.review_seat_calibration collect --a easy --b medium --games 60 --seed fit --out f
    python -m tools.review_seat_calibration collect --a medium --b medium --games 30 --seed fit --out f
    python -m tools.review_seat_calibration collect --a easy --b easy --games 60 --seed fit --out f
    python -m tools.review_seat_calibration fit f

(``--iterations 200`` is the default). ``b`` a little under 1 says the raw chance is a little
too sure of itself, ``a`` under 0 that it is a little hopeful (between equals the map takes
0.04 off a raw 0.5, 0.06 off a raw 0.7), and ``c`` that a rating edge counts for more than the
playouts know: with 145 points between them (strong and medium) a raw 0.5 is shown as 0.74 to
the stronger seat and 0.20 to the weaker. ``docs/review.md`` has the per-seat errors before and
after, on games the fit never saw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

#: Raw chances are clipped this far from 0 and 1 before the logit (a search's 0.0 or 1.0 is a
#: finite number of playouts, not a certainty).
EPSILON: Final = 0.005


@dataclass(frozen=True, slots=True)
class ChanceMap:
    """``sigmoid(a + b * logit(raw) + c * edge / 400)``."""

    a: float
    b: float
    c: float

    @staticmethod
    def logit(p: float) -> float:
        p = min(max(p, EPSILON), 1.0 - EPSILON)
        return math.log(p / (1.0 - p))

    def __call__(self, raw: float, edge: float = 0.0) -> float:
        z = self.a + self.b * self.logit(raw) + self.c * edge / 400.0
        return 1.0 / (1.0 + math.exp(-z))

    def as_dict(self) -> dict[str, float]:
        return {"a": round(self.a, 4), "b": round(self.b, 4), "c": round(self.c, 4)}


#: The fitted map (see the module's docstring for how).
CHANCE_MAP: Final = ChanceMap(a=-0.1609, b=0.8911, c=3.3069)
