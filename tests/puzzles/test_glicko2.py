"""Glicko-2 against the worked example of Glickman's paper ("Example of the Glicko-2 system")."""

from __future__ import annotations

import pytest

from puzzles.glicko2 import Rating, update


def test_the_papers_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.deviation == pytest.approx(200.27, abs=0.01)
