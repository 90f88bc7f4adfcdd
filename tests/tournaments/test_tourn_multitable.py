"""Multi-table rounds: balanced tables, snake seating, no repeat tablemates, points by place."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats_support import repeat_pairs
from tournaments.formats.favourites import Entrant, PlayerId, seed_order, snake
from tournaments.formats.multitable import (
    POINTS_SCALE,
    TableResult,
    final_table,
    ranking_after_final,
    seat_round,
    table_points,
    table_sizes,
    tablemates,
    total_points,
)
from tournaments.formats.standings import multitable_standings


@given(st.integers(min_value=2, max_value=200), st.integers(3, 6))
def test_table_sizes_are_balanced(n: int, max_size: int) -> None:
    try:
        sizes = table_sizes(n, max_size=max_size)
    except ValueError:
        assert max_size < 5, "tables of up to 5 or 6 can always be balanced"
        return
    assert sum(sizes) == n
    assert max(sizes) - min(sizes) <= 1
    assert max(sizes) <= max_size
    assert len(sizes) == 1 or min(sizes) >= 3


def test_table_sizes_examples() -> None:
    assert table_sizes(7) == (4, 3)
    assert table_sizes(12) == (6, 6)
    assert table_sizes(13) == (5, 4, 4)
    assert table_sizes(2) == (2,)
    with pytest.raises(ValueError):
        table_sizes(5, max_size=4)


def test_round_one_is_a_snake_by_rating() -> None:
    entrants = [Entrant(p, 2000.0 - p) for p in range(12)]
    tables = seat_round(entrants, max_size=4)
    assert tables == ((0, 5, 6, 11), (1, 4, 7, 10), (2, 3, 8, 9))


def random_table(table: tuple[PlayerId, ...], rng: random.Random) -> TableResult:
    """A random finish: sometimes two players go out together, sometimes a draw at the end."""
    order = list(table)
    rng.shuffle(order)
    groups: list[tuple[PlayerId, ...]] = []
    while order:
        take = 2 if len(order) >= 2 and rng.random() < 0.2 else 1
        groups.append(tuple(order[:take]))
        del order[:take]
    if len(groups) == 1:
        return TableResult(tuple(groups))  # everyone out in one bout: a draw
    fool = groups[-1][0] if len(groups[-1]) == 1 else None
    return TableResult(tuple(groups), fool=fool)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=6, max_value=64), st.integers())
def test_later_rounds_never_repeat_more_than_the_plain_snake(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(p, rng.choice([1400.0, 1500.0, 1600.0])) for p in range(n)]
    history: list[TableResult] = []
    for _ in range(3):
        tables = seat_round(entrants, history, seed=seed)
        points = total_points(history)
        by_score = sorted(seed_order(entrants, seed=seed), key=lambda p: -points.get(p, 0.0))
        plain = snake(by_score, [len(t) for t in tables])
        met = tablemates(history)
        assert repeat_pairs(tables, met) <= repeat_pairs(plain, met)
        assert sorted(p for t in tables for p in t) == list(range(n))
        history += [random_table(t, rng) for t in tables]


def test_a_big_field_has_no_repeat_tablemates_in_round_two() -> None:
    entrants = [Entrant(p, 1500.0 + p) for p in range(36)]
    first = seat_round(entrants)
    history = [TableResult(tuple((p,) for p in t), fool=t[-1]) for t in first]
    second = seat_round(entrants, history)
    assert repeat_pairs(second, tablemates(history)) == 0


def test_points_are_scaled_to_the_table_size() -> None:
    three = table_points(TableResult(((1,), (2,), (3,)), fool=3))
    six = table_points(TableResult(tuple((p,) for p in range(1, 7)), fool=6))
    assert three == {1: 60.0, 2: 30.0, 3: 0.0}
    assert six == {1: 60.0, 2: 48.0, 3: 36.0, 4: 24.0, 5: 12.0, 6: 0.0}
    shared = table_points(TableResult(((1,), (2, 3, 4), (5,)), fool=5))
    assert shared == {1: 60.0, 2: 30.0, 3: 30.0, 4: 30.0, 5: 0.0}


@given(st.integers(min_value=2, max_value=6), st.integers())
def test_a_table_hands_out_the_same_total_however_it_ends(size: int, seed: int) -> None:
    result = random_table(tuple(range(size)), random.Random(seed))
    assert sum(table_points(result).values()) == POINTS_SCALE * size / 2


def test_table_results_are_checked() -> None:
    with pytest.raises(ValueError):
        TableResult(((1,),))
    with pytest.raises(ValueError):
        TableResult(((1,), (1,)))
    with pytest.raises(ValueError):
        TableResult(((1,), (2, 3)), fool=3)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=64), st.integers(), st.integers(2, 6))
def test_simulated_multitable_events_finish_with_a_winner(n: int, seed: int, k: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(p, rng.choice([1400.0, 1500.0, 1600.0])) for p in range(n)]
    players = [e.player for e in entrants]
    history: list[TableResult] = []
    for _ in range(3):
        tables = seat_round(entrants, history, seed=seed)
        assert sorted(p for t in tables for p in t) == players, "everyone seated once"
        history += [random_table(t, rng) for t in tables]
        if n > 7 and rng.random() < 0.5:  # someone withdraws between rounds
            gone = rng.choice(players)
            entrants = [e for e in entrants if e.player != gone]
            players.remove(gone)
    order = [s.player for s in multitable_standings(players, history)]
    finalists = final_table(order, min(k, n))
    final = random_table(finalists, rng)
    ranking = ranking_after_final(order, final)
    assert sorted(ranking) == players
    assert ranking[0] in finalists
    assert ranking[: len(finalists)] == sorted(finalists, key=ranking.index)


def test_a_result_can_be_given_as_places() -> None:
    result = TableResult.from_places({7: 2, 8: 1, 9: 2, 10: 4}, fool=10)
    assert result.finish == ((8,), (7, 9), (10,))
    assert result.places() == {8: 1, 7: 2, 9: 2, 10: 4}
