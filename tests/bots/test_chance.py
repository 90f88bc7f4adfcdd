"""The review's chance as shown (issue 38, §7): the map from the search's raw chance and the seat's
rating edge (:mod:`games.bots.chance`), and the tool that fits it (:mod:`tools.review_seat_calibration`)."""

from __future__ import annotations

import math
import random

from games.bots.assess import label
from games.bots.chance import CHANCE_MAP, ChanceMap
from ratings.starts import BOT_START_RATINGS
from tools.review_seat_calibration import LEVEL_RATINGS, Game, fit

GRID = [i / 20 for i in range(21)]


def test_the_chance_shown_rises_with_the_raw_chance_and_with_the_rating_edge() -> None:
    for edge in (-300.0, -145.0, 0.0, 110.0, 300.0):
        shown = [CHANCE_MAP(p, edge) for p in GRID]
        assert all(0.0 < s < 1.0 for s in shown)
        assert shown == sorted(shown) and len(set(shown)) == len(shown)
    for p in GRID[1:-1]:
        by_edge = [CHANCE_MAP(p, edge) for edge in (-300.0, -145.0, 0.0, 145.0, 300.0)]
        assert by_edge == sorted(by_edge) and len(set(by_edge)) == len(by_edge)


def test_between_equals_the_chance_shown_stays_near_the_raw_one() -> None:
    # Between equals the map only takes off the raw chance's hope (0.06 at most, docs/review.md).
    assert max(abs(CHANCE_MAP(p, 0.0) - p) for p in GRID[1:-1]) < 0.07


def test_the_weaker_seat_is_shown_less_and_the_stronger_more_than_the_search_says() -> None:
    assert CHANCE_MAP(0.5, -145.0) < 0.5 < CHANCE_MAP(0.5, 145.0)


def test_the_labels_read_the_raw_drop_so_the_map_leaves_them_alone() -> None:
    # A decision's label is the raw chances' drop (games.bots.assess); the map only changes the
    # number the page shows, and keeps the order of the two chances of one decision.
    for edge in (-145.0, 0.0, 145.0):
        for best in GRID:
            for played in GRID:
                if played <= best:
                    assert CHANCE_MAP(played, edge) <= CHANCE_MAP(best, edge)
    assert label(0.3 - 0.1) == "mistake"


def test_the_tool_rates_the_bots_as_their_starts_do() -> None:
    assert dict(BOT_START_RATINGS) == LEVEL_RATINGS


def test_the_fit_finds_the_map_games_were_drawn_from() -> None:
    truth = ChanceMap(-0.1, 0.8, 1.5)
    rng = random.Random(7)
    games = []
    for i in range(600):
        levels = ("easy", "strong") if i % 2 else ("strong", "easy")
        raw = rng.random()
        edge = LEVEL_RATINGS[levels[0]] - LEVEL_RATINGS[levels[1]]
        won = float(rng.random() < truth(raw, edge))
        games.append(Game(f"g{i}", levels, (won, 1.0 - won), ((raw,), (1.0 - raw,))))
    fitted = fit(games)
    assert math.isclose(fitted.b, truth.b, abs_tol=0.25)
    assert math.isclose(fitted.c, truth.c, abs_tol=0.6)
