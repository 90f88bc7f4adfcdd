"""Arena pairing: tables from the players waiting now. Nobody sits twice; as many tables as can
be seated without an immediate rematch are; a repeat happens only to a player who has waited
the patience out, and an overdue player is never left waiting while a table can be made; and a
whole arena simulated over time never has anyone in two games at once."""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Collection, Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.arena.pairing import (
    PATIENCE_SECONDS,
    Plan,
    Waiting,
    default_min_size,
    plan_tables,
    repeats,
)
from tournaments.formats.arena.scoring import ArenaGame, finish_of, leaderboard
from tournaments.formats.multitable import TableResult


def most_repeat_free(players: list[int], last: Mapping[int, Collection[int]], size: int) -> int:
    """Brute force: the most disjoint full tables of ``players`` without a repeat."""
    best = 0

    def search(rest: list[int], count: int) -> None:
        nonlocal best
        best = max(best, count)
        if count + len(rest) // size <= best:
            return
        first, others = rest[0], rest[1:]
        for group in itertools.combinations(others, size - 1):
            if repeats((first, *group), last) == 0:
                search([p for p in others if p not in group], count + 1)
        search(others, count)

    if len(players) >= size:
        search(players, 0)
    return best


Case = tuple[list[Waiting], dict[int, set[int]], int]


@st.composite
def passes(draw: st.DrawFn) -> Case:
    size = draw(st.integers(2, 6))
    n = draw(st.integers(0, 10 if size <= 3 else 12))
    players = list(range(1, n + 1))
    ranks = draw(st.permutations(list(range(1, n + 1))))
    waited = draw(st.lists(st.floats(0, 40, allow_nan=False), min_size=n, max_size=n))
    waiting = [Waiting(p, r, w) for p, r, w in zip(players, ranks, waited, strict=True)]
    others = [*players, 90, 91, 92]  # opponents who are not waiting now
    last = {
        p: set(draw(st.lists(st.sampled_from(others), max_size=size - 1))) - {p}
        for p in players
        if draw(st.booleans())
    }
    return waiting, last, size


def check(plan: Plan, waiting: list[Waiting], last: dict[int, set[int]], size: int) -> None:
    info = {w.player: w for w in waiting}
    seated = [p for t in plan.tables for p in t]
    assert len(seated) == len(set(seated)), "nobody sits at two tables"
    assert set(seated) | set(plan.waiting) == set(info) and not set(seated) & set(plan.waiting)
    low = default_min_size(size)
    small = [t for t in plan.tables if len(t) < size]
    assert all(low <= len(t) for t in small) and len(small) <= 1
    overdue = {p for p, w in info.items() if w.waited >= PATIENCE_SECONDS}
    for table in plan.tables:
        if repeats(table, last) or len(table) < size:
            assert overdue & set(table), "only a player who waited long enough gets a repeat or a small table"
    full_free = sum(1 for t in plan.tables if len(t) == size and repeats(t, last) == 0)
    assert full_free == most_repeat_free(list(info), last, size)
    if overdue & set(plan.waiting):
        assert len(plan.waiting) < low, "an overdue player waits only when no table can be made"


@settings(max_examples=300)
@given(passes())
def test_a_pass_seats_the_most_tables_without_rematches(case: Case) -> None:
    waiting, last, size = case
    check(plan_tables(waiting, last, size=size), waiting, last, size)


@given(passes())
def test_with_nobody_overdue_every_table_is_full_and_new(case: Case) -> None:
    waiting, last, size = case
    fresh = [Waiting(w.player, w.rank, min(w.waited, PATIENCE_SECONDS - 1)) for w in waiting]
    plan = plan_tables(fresh, last, size=size)
    assert all(len(t) == size and repeats(t, last) == 0 for t in plan.tables)
    if len(plan.waiting) >= default_min_size(size):
        assert plan.recheck is not None and 0 < plan.recheck <= PATIENCE_SECONDS
    else:
        assert plan.recheck is None


def test_the_start_pairs_neighbours_on_the_leaderboard() -> None:
    waiting = [Waiting(p, p) for p in range(1, 9)]
    assert plan_tables(waiting, {}, size=2).tables == ((1, 2), (3, 4), (5, 6), (7, 8))
    assert plan_tables(waiting, {}, size=4).tables == ((1, 2, 3, 4), (5, 6, 7, 8))


def test_worked_example_five_duellists() -> None:
    """docs/arena.md: A..E by rating; the passes after the first two games."""
    a, b, c, d, e = 1, 2, 3, 4, 5
    start = plan_tables([Waiting(p, p) for p in (a, b, c, d, e)], {}, size=2)
    assert start.tables == ((a, b), (c, d)) and start.waiting == (e,) and start.recheck is None
    last = {a: {b}, b: {a}}
    ranks = {a: 1, c: 2, d: 3, e: 4, b: 5}  # A won; C, D, E have played nothing yet
    after_ab = plan_tables(
        [Waiting(a, ranks[a]), Waiting(b, ranks[b]), Waiting(e, ranks[e], 60.0)], last, size=2
    )
    assert after_ab.tables == ((e, a),) and after_ab.waiting == (b,)
    last |= {c: {d}, d: {c}}
    ranks = {a: 1, c: 2, e: 3, b: 4, d: 5}  # C won too, after A
    after_cd = plan_tables(
        [Waiting(b, ranks[b], 40.0), Waiting(c, ranks[c]), Waiting(d, ranks[d])], last, size=2
    )
    assert after_cd.tables == ((b, c),) and after_cd.waiting == (d,) and after_cd.recheck is None


def test_the_odd_one_out_is_who_waited_least() -> None:
    waiting = [Waiting(1, 1, 5.0), Waiting(2, 2, 0.5), Waiting(3, 3, 9.0)]
    plan = plan_tables(waiting, {}, size=2)
    assert plan.tables == ((3, 1),) and plan.waiting == (2,) and plan.recheck is None
    # ... unless leaving out someone else avoids a rematch.
    plan = plan_tables(waiting, {3: {1}}, size=2)
    assert plan.tables == ((3, 2),) and plan.waiting == (1,)


def test_two_alone_in_a_duel_arena_meet_again_only_after_the_wait() -> None:
    last = {1: {2}, 2: {1}}
    early = plan_tables([Waiting(1, 1, 3.0), Waiting(2, 2, 3.0)], last, size=2)
    assert early.tables == () and early.recheck == PATIENCE_SECONDS - 3.0
    late = plan_tables([Waiting(1, 1, PATIENCE_SECONDS), Waiting(2, 2, 3.0)], last, size=2)
    assert late.tables == ((1, 2),)


def test_a_table_of_five_falls_back_to_a_smaller_one_after_the_wait() -> None:
    waiting = [Waiting(p, p, 1.0) for p in range(1, 9)]
    plan = plan_tables(waiting, {}, size=5)
    assert plan.tables == ((1, 2, 3, 4, 5),) and plan.waiting == (6, 7, 8)
    assert plan.recheck == PATIENCE_SECONDS - 1.0
    assert plan_tables(waiting[:7], {}, size=5).recheck is None  # two left: too few for a table
    three = [Waiting(p, p, PATIENCE_SECONDS) for p in (6, 7, 8)]
    assert plan_tables(three, {}, size=5).tables == ((6, 7, 8),)
    two = [Waiting(p, p, PATIENCE_SECONDS) for p in (6, 7)]
    plan = plan_tables(two, {}, size=5)
    assert plan.tables == () and plan.recheck is None


def test_past_the_budget_the_search_still_seats_a_table() -> None:
    waiting = [Waiting(p, p) for p in range(1, 31)]
    last = {p: {p + 1} for p in range(1, 30)}
    plan = plan_tables(waiting, last, size=6, budget=5)
    assert plan.tables and all(repeats(t, last) == 0 for t in plan.tables)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 6),
    st.integers(2, 14),
    st.integers(0, 2**32 - 1),
)
def test_a_simulated_arena_never_puts_anyone_in_two_games(size: int, field: int, seed: int) -> None:
    """Players join over the first minutes, games last a random while, a pass runs whenever a
    game ends and on a tick every 5 s, for 20 simulated minutes; then the leaderboard."""
    rng = random.Random(seed)
    joins = {p: rng.uniform(0, 120) for p in range(1, field + 1)}
    free_since: dict[int, float] = {}
    playing: dict[int, int] = {}  # player -> game
    last: dict[int, set[int]] = {}
    ends: list[tuple[float, int, tuple[int, ...]]] = []
    results: list[ArenaGame] = []
    games = itertools.count(1)
    now = 0.0
    while now < 1200:
        tick = now + 5
        while ends and ends[0][0] <= tick:
            now, game, table = heapq.heappop(ends)
            order = list(table)
            rng.shuffle(order)
            results.append(ArenaGame(game, TableResult(tuple((p,) for p in order), fool=order[-1])))
            for p in table:
                assert playing.pop(p) == game
                last[p] = set(table) - {p}
                free_since[p] = now
        now = tick
        for p, t in joins.items():
            if t <= now and p not in free_since and p not in playing:
                free_since[p] = now
        ranks = {line.player: i for i, line in enumerate(leaderboard(sorted(joins), results), start=1)}
        waiting = [Waiting(p, ranks[p], now - since) for p, since in free_since.items()]
        plan = plan_tables(waiting, last, size=size)
        for table in plan.tables:
            game = next(games)
            for p in table:
                assert p not in playing, "nobody plays two games at once"
                playing[p] = game
                del free_since[p]
            heapq.heappush(ends, (now + rng.uniform(30, 300), game, table))
    lines = leaderboard(sorted(joins), results)
    total = sum(finish_of(g.result, p).points for g in results for p in g.result.players)
    assert sum(line.sheet.total for line in lines) >= total  # streaks only add
    assert sum(line.games for line in lines) == sum(len(g.result.players) for g in results)
    if field >= size:
        assert results, "a field that can fill a table plays"
