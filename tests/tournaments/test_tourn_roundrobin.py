"""Round robin: everyone meets everyone exactly once per leg, everyone seated once per round."""

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.elimination import series_outcome
from tournaments.formats.roundrobin import round_robin
from tournaments.formats.standings import GameResult, two_player_standings


@given(st.integers(min_value=2, max_value=40), st.sampled_from([1, 2]))
def test_everyone_meets_everyone_once_per_leg(n: int, legs: int) -> None:
    players = list(range(10, 10 + n))
    rounds = round_robin(players, legs=legs)
    per_leg = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_leg * legs
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    for r in rounds:
        seated = [p for pair in r.pairs for p in pair] + ([r.bye] if r.bye is not None else [])
        assert sorted(seated) == players, "everyone is seated exactly once per round"
        assert (r.bye is None) == (n % 2 == 0)
    for leg in range(legs):
        leg_rounds = rounds[leg * per_leg : (leg + 1) * per_leg]
        met = Counter(frozenset(pair) for r in leg_rounds for pair in r.pairs)
        assert met == Counter(frozenset(pair) for pair in combinations(players, 2))
        byes = [r.bye for r in leg_rounds if r.bye is not None]
        assert len(byes) == len(set(byes)), "a bye at most once per leg"


def test_second_leg_swaps_sides() -> None:
    rounds = round_robin([1, 2, 3, 4], legs=2)
    assert [tuple(reversed(p)) for p in rounds[0].pairs] == list(rounds[3].pairs)


def test_invalid_fields_are_refused() -> None:
    with pytest.raises(ValueError):
        round_robin([1])
    with pytest.raises(ValueError):
        round_robin([1, 1, 2])
    with pytest.raises(ValueError):
        round_robin([1, 2], legs=3)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=2, max_value=64), st.sampled_from([1, 2]), st.integers())
def test_simulated_round_robins_of_best_of_3_matches_finish_with_a_winner(
    n: int, legs: int, seed: int
) -> None:
    """Each pairing is a best-of-3 match of random games, entered as a 1/0.5/0 match result."""
    rng = random.Random(seed)
    players = list(range(n))
    results: list[GameResult] = []
    for r in round_robin(players, legs=legs):
        for a, b in r.pairs:
            games: list[float] = []
            while not (outcome := series_outcome(games, 3, allow_draw=True)).finished:
                games.append(rng.choice([0.0, 0.5, 1.0]))
            score = {0: 1.0, 1: 0.0, None: 0.5}[outcome.winner]
            results.append(GameResult(a, b, score))
    table = two_player_standings(players, results)
    assert table[0].rank == 1
    assert all(s.played == (n - 1) * legs for s in table)
    assert sum(s.points for s in table) == n * (n - 1) / 2 * legs
