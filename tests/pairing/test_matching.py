"""The matcher's promises, for any pool hypothesis can build: nobody is seated twice, every table
is full and of one setup, rated tables respect every seeker's range, blocked pairs never meet, and
nothing that could have been paired is left waiting alone by mistake (a pool of casual seeks of
one setup and no blocks seats all but the remainder)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.matching import Waiting, blocked_key, current_range, fits, pair
from pairing.setups import GRID, Setup

SETUPS = st.sampled_from(GRID[:6])


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[Waiting], set[frozenset[int]]]:
    count = draw(st.integers(0, 24))
    users = draw(st.lists(st.integers(1, 30), min_size=count, max_size=count))
    seeks = [
        Waiting(
            id=i + 1,
            user_id=user,
            setup=draw(SETUPS),
            rating=draw(st.floats(800, 2200)),
            range=draw(st.one_of(st.none(), st.integers(0, 600))),
            since=draw(st.floats(0, 1000)),
        )
        for i, user in enumerate(users)
    ]
    pairs = draw(st.sets(st.tuples(st.integers(1, 30), st.integers(1, 30)), max_size=20))
    return seeks, {blocked_key(a, b) for a, b in pairs if a != b}


@settings(max_examples=300, deadline=None)
@given(pools())
def test_nobody_is_paired_twice_and_every_table_is_full_and_of_one_setup(
    pool: tuple[list[Waiting], set[frozenset[int]]],
) -> None:
    seeks, blocked = pool
    groups = pair(seeks, blocked)
    seated_seeks = [w.id for g in groups for w in g]
    seated_users = [w.user_id for g in groups for w in g]
    assert len(seated_seeks) == len(set(seated_seeks))
    assert len(seated_users) == len(set(seated_users))
    for group in groups:
        assert len(group) == group[0].setup.players
        assert {w.setup for w in group} == {group[0].setup}


@settings(max_examples=300, deadline=None)
@given(pools())
def test_blocked_pairs_never_meet_and_rated_ranges_are_respected(
    pool: tuple[list[Waiting], set[frozenset[int]]],
) -> None:
    seeks, blocked = pool
    for group in pair(seeks, blocked):
        for a, b in combinations(group, 2):
            assert blocked_key(a.user_id, b.user_id) not in blocked
            if a.setup.rated:
                for limit in (a.range, b.range):
                    assert limit is None or abs(a.rating - b.rating) <= limit


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 20), st.sampled_from([s for s in GRID if not s.rated]))
def test_a_casual_pool_without_blocks_seats_all_but_the_remainder(count: int, setup: Setup) -> None:
    seeks = [Waiting(i, 100 + i, setup, 1500.0, None, float(i)) for i in range(count)]
    groups = pair(seeks, set())
    assert len(groups) == count // setup.players
    assert [w.id for w in groups[0]] == list(range(setup.players)) if groups else True  # oldest first


def test_a_rated_range_widens_with_waiting_time_so_far_opponents_meet_later() -> None:
    setup = next(s for s in GRID if s.rated and s.players == 2)
    near = current_range(100, 0)
    later = current_range(100, 60)
    a = Waiting(1, 1, setup, 1500.0, near, 0.0)
    b = Waiting(2, 2, setup, 1850.0, near, 0.0)
    assert not fits(a, b, set()) and pair([a, b], set()) == []
    a, b = Waiting(1, 1, setup, 1500.0, later, 0.0), Waiting(2, 2, setup, 1850.0, later, 0.0)
    assert later is not None and later >= 350 and pair([a, b], set()) == [(a, b)]
