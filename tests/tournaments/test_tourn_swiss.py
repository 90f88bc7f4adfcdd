"""Swiss: seated once per round, no avoidable rematch, byes once at most and to the lowest ranked.

Rematches and byes are checked against a brute force over every possible pairing of small fields.
"""

import math
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.favourites import Entrant, PlayerId
from tournaments.formats.standings import GameResult, two_player_standings
from tournaments.formats.swiss import SwissRound, pair_swiss, swiss_ranking


def pairings(players: list[PlayerId]) -> Iterator[list[tuple[PlayerId, PlayerId]]]:
    """Every perfect matching of an even list."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def random_result(a: PlayerId, b: PlayerId, rng: random.Random) -> GameResult:
    score = rng.choice([0.0, 0.5, 1.0])
    return GameResult(a, b, score, fool={1.0: b, 0.0: a}.get(score))


def play_round(round_: SwissRound, rng: random.Random) -> list[GameResult]:
    return [random_result(a, b, rng) for a, b in round_.pairs]


def assert_everyone_seated_once(round_: SwissRound, players: list[PlayerId]) -> None:
    seated = [p for pair in round_.pairs for p in pair]
    if round_.bye is not None:
        seated.append(round_.bye)
    assert sorted(seated) == sorted(players)


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Entrant], list[GameResult], list[PlayerId]]:
    """A small field with a few earlier rounds paired at random (not by Swiss), to stress it."""
    n = draw(st.integers(min_value=2, max_value=9))
    rng = random.Random(draw(st.integers()))
    entrants = [Entrant(p, draw(st.sampled_from([1400.0, 1500.0, 1600.0]))) for p in range(n)]
    games: list[GameResult] = []
    byes: list[PlayerId] = []
    for _ in range(draw(st.integers(min_value=0, max_value=n - 1))):
        players = list(range(n))
        rng.shuffle(players)
        if n % 2:
            candidates = [p for p in players if p not in byes]
            bye = candidates[0]
            byes.append(bye)
            players.remove(bye)
        games += [random_result(players[i], players[i + 1], rng) for i in range(0, len(players), 2)]
    return entrants, games, byes


@settings(max_examples=150, deadline=None)
@given(histories())
def test_no_avoidable_rematch_and_the_bye_to_the_lowest_ranked(
    history: tuple[list[Entrant], list[GameResult], list[PlayerId]],
) -> None:
    entrants, games, byes = history
    players = [e.player for e in entrants]
    round_ = pair_swiss(entrants, games, byes, seed=1)
    assert_everyone_seated_once(round_, players)
    met = {frozenset((g.a, g.b)) for g in games}

    def fewest_rematches(without: PlayerId | None) -> int:
        rest = [p for p in players if p != without]
        return min(sum(frozenset(pair) in met for pair in m) for m in pairings(rest))

    if len(players) % 2 == 0:
        assert round_.bye is None
        assert round_.rematches == fewest_rematches(None)
        return
    assert round_.bye is not None and round_.bye not in byes, "a bye at most once"
    eligible = [p for p in players if p not in byes]
    best = min(fewest_rematches(p) for p in eligible)
    assert round_.rematches == best
    order = swiss_ranking(entrants, games, byes, seed=1)
    lowest_possible = next(p for p in reversed(order) if p in eligible and fewest_rematches(p) == best)
    assert round_.bye == lowest_possible


def test_first_round_top_half_meets_bottom_half() -> None:
    entrants = [Entrant(p, 2000.0 - 10 * p) for p in range(8)]
    assert pair_swiss(entrants).pairs == ((0, 4), (1, 5), (2, 6), (3, 7))


def test_score_groups_are_paired_within_themselves() -> None:
    entrants = [Entrant(p, 2000.0 - 10 * p) for p in range(8)]
    games = [GameResult(a, b, 1.0, fool=b) for a, b in ((0, 4), (1, 5), (2, 6), (3, 7))]
    pairs = pair_swiss(entrants, games).pairs
    winners = {0, 1, 2, 3}
    assert all((a in winners) == (b in winners) for a, b in pairs)
    assert pairs[:2] == ((0, 2), (1, 3))


def test_odd_field_bye_goes_to_the_lowest_ranked_and_never_twice() -> None:
    entrants = [Entrant(p, 2000.0 - 10 * p) for p in range(5)]
    assert pair_swiss(entrants).bye == 4
    assert pair_swiss(entrants, byes=[4]).bye == 3
    with pytest.raises(ValueError, match="everyone has had a bye"):
        pair_swiss(entrants, byes=[0, 1, 2, 3, 4])


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=64), st.integers())
def test_simulated_swiss_events_finish_with_a_winner(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(p, rng.choice([1400.0, 1500.0, 1600.0])) for p in range(n)]
    players = [e.player for e in entrants]
    rounds = min(n - 1, math.ceil(math.log2(n)) + 1) if n > 2 else 1
    games: list[GameResult] = []
    byes: list[PlayerId] = []
    for _ in range(rounds):
        round_ = pair_swiss(entrants, games, byes, seed=seed)
        assert_everyone_seated_once(round_, players)
        if n >= 8:
            assert round_.rematches == 0, "a field this size never needs a rematch this early"
        if round_.bye is not None:
            assert round_.bye not in byes
            byes.append(round_.bye)
        games += play_round(round_, rng)
        if n > 4 and rng.random() < 0.3:  # someone withdraws; their games still count as met
            gone = rng.choice(players)
            entrants = [e for e in entrants if e.player != gone]
            players.remove(gone)
            n -= 1
    table = two_player_standings(players, games, byes=byes)
    assert table[0].rank == 1 and sorted(s.player for s in table) == players
    assert sum(s.points for s in table) <= len(games) + len(byes)


def test_pairing_is_deterministic_for_equal_inputs() -> None:
    rng = random.Random(5)
    entrants = [Entrant(p, 1500.0) for p in range(11)]
    games = [random_result(a, b, rng) for a, b in ((0, 1), (2, 3), (4, 5), (6, 7), (8, 9))]
    assert pair_swiss(entrants, games, [10], seed=3) == pair_swiss(entrants, games, [10], seed=3)
