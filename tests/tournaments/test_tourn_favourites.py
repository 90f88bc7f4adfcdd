"""The favourites (a tournament's seeds): rating order, a replayable shuffle for equal ratings,
the 1-vs-N layout, the snake."""

from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.favourites import (
    Entrant,
    bracket_seed_positions,
    bracket_size,
    seed_order,
    snake,
)


def test_ratings_decide_and_equal_ratings_follow_the_seed() -> None:
    field = [Entrant(p, 1500.0) for p in range(10)] + [Entrant(99, 1900.0)]
    first = seed_order(field, seed=7)
    assert first[0] == 99
    assert seed_order(field, seed=7) == first, "the same seed replays the same order"
    assert any(seed_order(field, seed=s) != first for s in range(5)), "the seed matters"


@given(st.integers(min_value=1, max_value=7))
def test_first_round_lines_add_up_to_size_plus_one(power: int) -> None:
    size = 2**power
    positions = bracket_seed_positions(size)
    assert sorted(positions) == list(range(1, size + 1))
    assert all(positions[i] + positions[i + 1] == size + 1 for i in range(0, size, 2))


@given(st.integers(min_value=1, max_value=7))
def test_top_seeds_are_spread_over_the_sections(power: int) -> None:
    """Seeds 1..2^k sit in different sections of size/2^k lines: 1 and 2 in opposite halves."""
    size = 2**power
    positions = bracket_seed_positions(size)
    for k in range(power + 1):
        section = size >> k
        top = [positions.index(s) // section for s in range(1, 2**k + 1)]
        assert len(set(top)) == len(top)


def test_bracket_size_is_the_next_power_of_two() -> None:
    assert [bracket_size(n) for n in (2, 3, 8, 9, 64, 65)] == [2, 4, 8, 16, 64, 128]


@given(st.lists(st.integers(min_value=2, max_value=6), min_size=1, max_size=8))
def test_snake_seats_everyone_once_in_tables_of_the_given_sizes(sizes: list[int]) -> None:
    players = list(range(sum(sizes)))
    tables = snake(players, sizes)
    assert [len(t) for t in tables] == sizes
    assert sorted(p for t in tables for p in t) == players
