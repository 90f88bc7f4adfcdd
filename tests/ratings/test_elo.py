"""Elo arithmetic against worked examples (games/elo.py).

Each example is worked out by hand in its docstring, so a change in the formula shows up as a
difference from arithmetic a reader can check.
"""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.elo import (
    expected_score,
    is_provisional,
    k_factor,
    multiplayer_changes,
    team_changes,
)


def test_two_players_underdog_wins() -> None:
    """1400 beats 1600, both settled (K = 20): E = 1/(1 + 10^(200/400)) = 0.2403, change 20 × 0.7597."""
    changes = multiplayer_changes({"lo": 1400, "hi": 1600}, [["lo"], ["hi"]], {"lo": 30, "hi": 30})
    assert changes["lo"] == pytest.approx(15.19, abs=0.01)
    assert changes["hi"] == pytest.approx(-15.19, abs=0.01)


def test_two_players_drawn_game_between_equals_changes_nothing() -> None:
    """A drawn game puts both players in one group: score 0.5 against an expectation of 0.5."""
    assert multiplayer_changes({1: 1500, 2: 1500}, [[1, 2]], {1: 0, 2: 0}) == {1: 0.0, 2: 0.0}


def test_four_players_shared_place() -> None:
    """Order a, then b and c out in the same bout, then d the fool; all 1500 and new (K = 40).

    a: (1 - .5) × 3 = 1.5 → 40/3 × 1.5 = +20; b: -0.5 + 0 + 0.5 = 0; d: -1.5 → -20.
    """
    ratings = dict.fromkeys("abcd", 1500.0)
    changes = multiplayer_changes(ratings, [["a"], ["b", "c"], ["d"]], dict.fromkeys("abcd", 0))
    assert changes == pytest.approx({"a": 20.0, "b": 0.0, "c": 0.0, "d": -20.0})


def test_three_players_drawn_ending_draws_everyone_still_in() -> None:
    """a went out first; b and c went out in the last bout together (a draw between them).

    a: 40/2 × (0.5 + 0.5) = +20; b: 40/2 × (-0.5 + 0) = -10; c the same.
    """
    ratings = dict.fromkeys("abc", 1500.0)
    changes = multiplayer_changes(ratings, [["a"], ["b", "c"]], dict.fromkeys("abc", 0))
    assert changes == pytest.approx({"a": 20.0, "b": -10.0, "c": -10.0})


def test_six_players_leaver_counts_as_fool() -> None:
    """A leaver is put in the last group, exactly like the fool: here two leavers share it."""
    players = "abcdef"
    ratings = dict.fromkeys(players, 1500.0)
    changes = multiplayer_changes(
        ratings, [["a"], ["b"], ["c"], ["d"], ["e", "f"]], dict.fromkeys(players, 30)
    )
    # e: vs a..d 0 - .5 each = -2, vs f 0 → 20/5 × -2 = -8
    assert changes["e"] == pytest.approx(-8.0)
    assert changes["f"] == pytest.approx(-8.0)
    assert changes["a"] == pytest.approx(20 / 5 * 2.5)


def test_teams_mean_rating_and_own_k() -> None:
    """Team A (1700, 1500: mean 1600) loses to team B (1500, 1500).

    E_A = 1/(1 + 10^(-100/400)) = 0.6401; a new member (K 40) moves 40 × -0.6401 = -25.60, a settled
    one (K 20) -12.80; B's members move by their K × 0.6401.
    """
    ratings = {"a1": 1700.0, "a2": 1500.0, "b1": 1500.0, "b2": 1500.0}
    played = {"a1": 0, "a2": 30, "b1": 0, "b2": 30}
    changes = team_changes(ratings, ["a1", "a2"], ["b1", "b2"], 0.0, played)
    assert changes["a1"] == pytest.approx(-25.60, abs=0.01)
    assert changes["a2"] == pytest.approx(-12.80, abs=0.01)
    assert changes["b1"] == pytest.approx(25.60, abs=0.01)
    assert changes["b2"] == pytest.approx(12.80, abs=0.01)


def test_k_factor_and_provisional_thresholds() -> None:
    assert [k_factor(n) for n in (0, 29, 30, 500)] == [40, 40, 20, 20]
    assert is_provisional(19) and not is_provisional(20)


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError):
        multiplayer_changes({1: 1500, 2: 1500}, [[1], [1]], {1: 0, 2: 0})
    with pytest.raises(ValueError):
        multiplayer_changes({1: 1500, 2: 1500}, [[1]], {1: 0, 2: 0})
    with pytest.raises(ValueError):
        team_changes({1: 1500, 2: 1500, 3: 1500, 4: 1500}, [1, 3], [2, 4], 0.7, dict.fromkeys(range(1, 5), 0))


@given(
    st.lists(st.floats(min_value=800, max_value=2800), min_size=2, max_size=6),
    st.randoms(use_true_random=False),
)
def test_equal_k_conserves_rating_points(ratings: list[float], rnd: random.Random) -> None:
    """With one K for everybody, what one player gains the others lose: the sum of changes is 0."""
    players = list(range(len(ratings)))
    rnd.shuffle(players)
    groups = [[p] for p in players]
    changes = multiplayer_changes(dict(enumerate(ratings)), groups, dict.fromkeys(players, 10))
    assert math.isclose(sum(changes.values()), 0.0, abs_tol=1e-9)


@given(st.floats(min_value=-2000, max_value=2000))
def test_expected_scores_are_complementary(diff: float) -> None:
    assert math.isclose(expected_score(1500 + diff, 1500) + expected_score(1500, 1500 + diff), 1.0)
