"""Arena scoring: points by finishing place, the streak, berserk's bonus and the leaderboard's
order; the worked examples of ``docs/arena.md``."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.arena.scoring import (
    BERSERK_BONUS,
    STREAK,
    ArenaGame,
    Finish,
    Game,
    finish_of,
    leaderboard,
    sheet,
    sheets,
)
from tournaments.formats.multitable import TableResult


@st.composite
def table_results(draw: st.DrawFn, players: list[int] | None = None) -> TableResult:
    """A finishing order of 2-6 players: groups out in the same bout, and a fool when the last
    group is one player (sometimes none, as after a forfeit without a fool)."""
    if players is None:
        n = draw(st.integers(2, 6))
        players = list(range(1, n + 1))
    players = draw(st.permutations(players))
    cuts = draw(st.lists(st.booleans(), min_size=len(players) - 1, max_size=len(players) - 1))
    groups: list[list[int]] = [[players[0]]]
    for player, cut in zip(players[1:], cuts, strict=True):
        if cut:
            groups.append([player])
        else:
            groups[-1].append(player)
    fool = groups[-1][0] if len(groups[-1]) == 1 and len(groups) > 1 and draw(st.booleans()) else None
    return TableResult(tuple(tuple(g) for g in groups), fool)


@given(table_results())
def test_a_table_hands_out_two_points_a_pair(result: TableResult) -> None:
    n = len(result.players)
    finishes = {p: finish_of(result, p) for p in result.players}
    assert sum(f.points for f in finishes.values()) == n * (n - 1)
    for player, finish in finishes.items():
        assert finish.size == n
        assert 0 <= finish.points <= 2 * (n - 1)
        assert finish.lost == (player == result.fool)
        if finish.lost:
            assert finish.points == 0 and not finish.good
        assert finish.good == (finish.points * 2 > 2 * (n - 1))


def test_a_duel_is_two_for_a_win_one_for_a_draw() -> None:
    win = TableResult(((1,), (2,)), fool=2)
    draw = TableResult(((1, 2),))
    assert (finish_of(win, 1).points, finish_of(win, 2).points) == (2, 0)
    assert (finish_of(draw, 1).points, finish_of(draw, 2).points) == (1, 1)
    assert finish_of(win, 1).good and not finish_of(draw, 1).good and not finish_of(win, 2).good


def test_good_results_are_the_better_half_of_a_table() -> None:
    for n in range(2, 7):
        order = TableResult(tuple((p,) for p in range(1, n + 1)), fool=n)
        good = [p for p in order.players if finish_of(order, p).good]
        assert good == list(range(1, n // 2 + 1)), n


games = st.builds(
    Game,
    finish=table_results().flatmap(lambda r: st.sampled_from([finish_of(r, p) for p in r.players])),
    berserk=st.booleans(),
    long_enough=st.booleans(),
)


@given(st.lists(games, max_size=20))
def test_a_sheet_is_the_sum_of_its_games(played: list[Game]) -> None:
    scored = sheet(played)
    assert scored.total == sum(s.points for s in scored.scores)
    assert len(scored.scores) == len(played)
    for i, (game, score) in enumerate(zip(played, scored.scores, strict=True)):
        before = played[max(0, i - STREAK) : i]
        assert score.doubled == (len(before) == STREAK and all(g.finish.good for g in before))
        assert score.base == game.finish.points and score.good == game.finish.good
        bonus = BERSERK_BONUS if game.berserk and game.long_enough and not game.finish.lost else 0
        assert score.bonus == bonus
        assert score.points == score.base * (2 if score.doubled else 1) + bonus
    run = len(list(itertools.takewhile(lambda g: g.finish.good, reversed(played))))
    assert scored.streak == run and scored.on_fire == (run >= STREAK)


Arena = tuple[list[int], list[ArenaGame]]


@st.composite
def arenas(draw: st.DrawFn) -> Arena:
    field = list(range(1, draw(st.integers(2, 8)) + 1))
    played = []
    for number in range(1, draw(st.integers(0, 12)) + 1):
        size = draw(st.integers(2, min(6, len(field))))
        table = draw(st.permutations(field))[:size]
        result = draw(table_results(table))
        berserk = frozenset(draw(st.lists(st.sampled_from(table), max_size=size)))
        played.append(ArenaGame(number, result, berserk, draw(st.booleans())))
    listed = draw(st.permutations(field))
    listed = listed[: draw(st.integers(1, len(listed)))]  # the others withdrew or were removed
    return listed, draw(st.permutations(played))


@given(arenas())
def test_the_leaderboard_scores_every_recorded_result_once_in_order(arena: Arena) -> None:
    listed, played = arena
    lines = leaderboard(listed, played)
    assert sorted(line.player for line in lines) == sorted(listed)
    in_order = sorted(played, key=lambda g: g.number)
    for line in lines:
        own = [g for g in in_order if line.player in g.result.players]
        expected = sheet(
            Game(finish_of(g.result, line.player), line.player in g.berserk, g.long_enough) for g in own
        )
        assert line.sheet == expected
        assert line.points == expected.total == sum(s.points for s in expected.scores)
        assert line.games == len(own)
    keys = [(-line.points, line.games, line.reached) for line in lines]
    assert keys == sorted(keys)
    for before, after in itertools.pairwise(lines):
        same = (before.points, before.games, before.reached) == (after.points, after.games, after.reached)
        assert (after.rank == before.rank) == same
        if not same:
            assert after.rank == lines.index(after) + 1
    assert lines[0].rank == 1


def duel(number: int, winner: int, loser: int) -> ArenaGame:
    return ArenaGame(number, TableResult(((winner,), (loser,)), fool=loser))


def drawn(number: int, a: int, b: int) -> ArenaGame:
    return ArenaGame(number, TableResult(((a, b),)))


def test_ties_fewer_games_then_who_got_there_first() -> None:
    # 1 and 2 both have 2 points: 1 from one game, 2 from two draws.
    lines = leaderboard([1, 2, 3, 4], [duel(1, 1, 3), drawn(2, 2, 4), drawn(3, 2, 3)])
    assert [(line.player, line.points, line.games) for line in lines[:2]] == [(1, 2, 1), (2, 2, 2)]
    # 5 and 6 both won one game: 6 won first.
    lines = leaderboard([5, 6, 7, 8], [duel(1, 6, 7), duel(2, 5, 8)])
    assert [line.player for line in lines[:2]] == [6, 5]
    assert [line.reached for line in lines[:2]] == [1, 2]


def test_worked_example_a_duel_arena() -> None:
    """docs/arena.md, example 1: Anna's evening in a duel arena."""
    win, draw, loss = Finish(1, 0, 0), Finish(0, 1, 0), Finish(0, 0, 1, fool=True)
    games = [
        Game(win),
        Game(win),
        Game(win, berserk=True),
        Game(draw),
        Game(loss, berserk=True),
        Game(win),
    ]
    scored = sheet(games)
    assert [s.points for s in scored.scores] == [2, 2, 5, 2, 0, 2]
    assert scored.total == 13


def test_worked_example_a_table_of_four() -> None:
    """docs/arena.md, example 2: one table of four, Boris out first, Vera and Gleb together,
    Dasha the fool."""
    boris, vera, gleb, dasha = 1, 2, 3, 4
    result = TableResult(((boris,), (vera, gleb), (dasha,)), fool=dasha)
    points = {p: finish_of(result, p).points for p in result.players}
    assert points == {boris: 6, vera: 3, gleb: 3, dasha: 0}
    assert [p for p in result.players if finish_of(result, p).good] == [boris]


def test_worked_example_a_table_arena_with_a_streak() -> None:
    """docs/arena.md, example 3: Vera at tables of four (two good results, then on fire)."""
    first, second, third, fool = (Finish(3, 0, 0), Finish(2, 0, 1), Finish(1, 0, 2), Finish(0, 0, 3, True))
    scored = sheet([Game(second), Game(first), Game(third), Game(first, berserk=True), Game(fool)])
    assert [s.points for s in scored.scores] == [4, 6, 4, 7, 0]
    assert [s.doubled for s in scored.scores] == [False, False, True, False, False]
    assert scored.total == 21


def test_players_not_listed_still_count_as_opponents() -> None:
    result = TableResult(((1,), (2,), (3,)), fool=3)
    found = sheets([2, 3], [ArenaGame(1, result)])
    assert found[2][1].total == 2 and found[3][1].total == 0 and 1 not in found
