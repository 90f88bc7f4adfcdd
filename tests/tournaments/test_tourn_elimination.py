"""Elimination brackets: size, seeding, byes, the paths through a double elimination, series."""

import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats_support import ready_slots
from tournaments.formats.elimination import (
    BracketPlan,
    Format,
    Section,
    SlotId,
    Status,
    bracket_state,
    champion,
    double_elimination,
    final_ranking,
    plan_bracket,
    series_outcome,
    single_elimination,
)
from tournaments.formats.favourites import PlayerId

fields = st.integers(min_value=2, max_value=64)
Chooser = Callable[[tuple[PlayerId, PlayerId]], PlayerId]


def play_out(plan: BracketPlan, choose: Chooser) -> dict[SlotId, PlayerId]:
    """Play every ready slot until there is a champion, as the site will."""
    winners: dict[SlotId, PlayerId] = {}
    while champion(plan, winners) is None:
        ready = ready_slots(plan, winners)
        assert ready, "a running bracket always has a match to play"
        for state in ready:
            a, b = state.players
            assert a is not None and b is not None
            winners[state.slot.id] = choose((a, b))
    return winners


def favourite(seeds: list[PlayerId]) -> Chooser:
    return lambda pair: min(pair, key=seeds.index)


def coin(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda pair: rng.choice(pair)


def match_losses(plan: BracketPlan, winners: dict[SlotId, PlayerId]) -> Counter[PlayerId]:
    states = bracket_state(plan, winners)
    return Counter(s.loser for s in states.values() if s.status is Status.DONE and s.loser is not None)


@given(fields)
def test_single_elimination_size_and_byes_to_top_seeds(n: int) -> None:
    seeds = list(range(1, n + 1))
    plan = single_elimination(seeds)
    assert plan.size >= n > plan.size // 2
    first_round = [s for s in plan.slots if s.section is Section.WINNERS and s.round == 1]
    assert len(first_round) == plan.size // 2
    states = bracket_state(plan, {})
    byes = sorted(p for s in states.values() if s.status is Status.BYE for p in s.players if p is not None)
    assert byes == seeds[: plan.size - n], "the byes go to the top seeds"


@given(fields, st.booleans())
def test_favourites_winning_brings_1_and_2_to_the_final(n: int, third_place: bool) -> None:
    seeds = list(range(100, 100 + n))
    plan = single_elimination(seeds, third_place=third_place)
    winners = play_out(plan, favourite(seeds))
    states = bracket_state(plan, winners)
    final = [s for s in states.values() if s.slot.winner_to is None and s.slot.section is Section.WINNERS]
    assert len(final) == 1 and set(final[0].players) == {100, 101}
    met = [set(s.players) for s in states.values() if s.status is Status.DONE]
    assert met.count({100, 101}) == 1
    ranking = final_ranking(plan, winners)
    assert ranking[100] == 1 and ranking[101] == 2
    if n >= 4:
        assert ranking[102] == 3, "seed 3 reaches the semi-final and is third or shares it"


@settings(max_examples=60, deadline=None)
@given(fields, st.booleans(), st.integers())
def test_single_elimination_random_results_finish_with_one_winner(
    n: int, third_place: bool, seed: int
) -> None:
    seeds = list(range(n))
    plan = single_elimination(seeds, third_place=third_place)
    winners = play_out(plan, coin(seed))
    top = champion(plan, winners)
    losses = match_losses(plan, winners)
    assert top is not None and losses[top] == 0
    knocked_out = [p for p in seeds if p != top]
    third = plan.slot("3P") if plan.third_place else None
    for player in knocked_out:
        extra = 1 if third and player in bracket_state(plan, winners)["3P"].players else 0
        assert 1 <= losses[player] <= 1 + extra
    ranking = final_ranking(plan, winners)
    assert sorted(ranking) == sorted(seeds)
    assert list(ranking.values()).count(1) == 1


def test_third_place_match_is_played_by_the_semi_final_losers() -> None:
    seeds = [1, 2, 3, 4, 5, 6, 7, 8]
    plan = single_elimination(seeds, third_place=True)
    winners = play_out(plan, favourite(seeds))
    states = bracket_state(plan, winners)
    assert set(states["3P"].players) == {3, 4}
    assert final_ranking(plan, winners) == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 5, 8: 5}


def test_a_result_for_a_slot_that_is_not_ready_is_refused() -> None:
    plan = single_elimination([1, 2, 3, 4])
    with pytest.raises(ValueError, match="not playable"):
        bracket_state(plan, {"W2-1": 1})
    with pytest.raises(ValueError, match="does not play"):
        bracket_state(plan, {"W1-1": 2})


@settings(max_examples=80, deadline=None)
@given(fields, st.integers())
def test_double_elimination_everyone_but_the_champion_is_out_after_two_losses(n: int, seed: int) -> None:
    seeds = list(range(n))
    plan = double_elimination(seeds)
    winners = play_out(plan, coin(seed))
    top = champion(plan, winners)
    assert top is not None
    losses = match_losses(plan, winners)
    assert losses[top] <= 1
    assert all(losses[p] == 2 for p in seeds if p != top)
    assert sorted(final_ranking(plan, winners)) == sorted(seeds)


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8, 13])
def test_grand_final_reset_is_played_only_when_the_losers_bracket_champion_wins(n: int) -> None:
    seeds = list(range(n))
    plan = double_elimination(seeds)
    # Favourites win everywhere: seed 0 is unbeaten, meets the losers' champion, wins: no reset.
    winners = play_out(plan, favourite(seeds))
    assert bracket_state(plan, winners)["GF2"].status is Status.VOID
    assert champion(plan, winners) == 0
    # Now the losers' champion takes the first grand final: both have one loss, GF2 decides.
    del winners["GF"]
    gf = bracket_state(plan, winners)["GF"]
    assert gf.status is Status.READY and gf.players[0] == 0
    assert gf.players[1] is not None
    winners["GF"] = gf.players[1]
    reset = bracket_state(plan, winners)["GF2"]
    assert reset.status is Status.READY and set(reset.players) == set(gf.players)
    assert champion(plan, winners) is None
    winners["GF2"] = gf.players[1]
    assert champion(plan, winners) == gf.players[1]


def test_slots_say_where_winners_and_losers_go() -> None:
    plan = double_elimination(list(range(8)))
    for slot in plan.slots:
        for target in (slot.winner_to, slot.loser_to):
            if target is not None:
                assert plan.slot(target[0]).stage > slot.stage
    assert plan.slot("W1-1").loser_to == ("L1-1", 0)
    assert plan.slot("W3-1").winner_to == ("GF", 0)
    assert plan.slot("GF").winner_to is None


@pytest.mark.parametrize(
    ("games", "best_of", "allow_draw", "expected"),
    [
        ([1], 1, False, (True, 0, False)),
        ([0.5], 1, True, (True, None, False)),
        ([0.5], 1, False, (False, None, True)),
        ([0.5, 0.5, 1], 1, False, (True, 0, False)),
        ([1, 1], 3, False, (True, 0, False)),
        ([1, 0.5], 3, False, (False, None, False)),
        ([1, 0.5, 0], 3, False, (False, None, True)),
        ([1, 0.5, 0], 3, True, (True, None, False)),
        ([1, 0.5, 0, 0], 3, False, (True, 1, False)),
        ([0.5, 0.5, 0.5, 0.5], 1, False, (True, 0, False)),
        ([0, 0, 0], 5, False, (True, 1, False)),
    ],
)
def test_series_outcome(
    games: list[float],
    best_of: int,
    allow_draw: bool,
    expected: tuple[bool, int | None, bool],
) -> None:
    outcome = series_outcome(games, best_of, allow_draw=allow_draw)
    assert (outcome.finished, outcome.winner, outcome.sudden_death) == expected


def test_series_refuses_games_after_the_end_and_odd_scores() -> None:
    with pytest.raises(ValueError, match="after the match ended"):
        series_outcome([1, 1, 0], 3)
    with pytest.raises(ValueError, match=r"1, 0\.5 or 0"):
        series_outcome([2], 3)


@settings(max_examples=200)
@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), max_size=12), st.integers(1, 7))
def test_series_always_ends_and_never_needs_more_than_n_plus_deciders(
    games: list[float], best_of: int
) -> None:
    played: list[float] = []
    for score in games:
        if series_outcome(played, best_of).finished:
            break
        played.append(score)
    outcome = series_outcome(played, best_of)
    assert len(played) <= best_of + 3
    if len(played) == best_of + 3:
        assert outcome.finished
    if outcome.finished:
        assert outcome.winner in (0, 1)


@settings(max_examples=20, deadline=None)
@given(fields, st.sampled_from(["single", "double"]), st.integers())
def test_brackets_of_best_of_3_matches_with_drawn_games_finish(n: int, kind: str, seed: int) -> None:
    """Matches decided by :func:`series_outcome` over random games, draws and deciders included."""
    rng = random.Random(seed)
    seeds = list(range(n))
    plan = single_elimination(seeds, third_place=True) if kind == "single" else double_elimination(seeds)

    def best_of_3(pair: tuple[PlayerId, PlayerId]) -> PlayerId:
        games: list[float] = []
        while not (outcome := series_outcome(games, 3)).finished:
            games.append(rng.choice([0.0, 0.5, 0.5, 1.0]))
        assert outcome.winner is not None
        return pair[outcome.winner]

    winners = play_out(plan, best_of_3)
    assert champion(plan, winners) in seeds


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=3, max_value=32), st.sampled_from(["single", "double"]), st.data())
def test_withdrawn_players_forfeit_their_remaining_matches(n: int, kind: str, data: st.DataObject) -> None:
    seeds = list(range(n))
    plan = single_elimination(seeds) if kind == "single" else double_elimination(seeds)
    gone = set(data.draw(st.lists(st.sampled_from(seeds), max_size=n - 1, unique=True)))
    rng = random.Random(data.draw(st.integers()))
    winners: dict[SlotId, PlayerId] = {}
    while champion(plan, winners, gone) is None:
        for state in ready_slots(plan, winners, gone):
            assert not gone & set(state.players), "a withdrawn player is never sent to a table"
            a, b = state.players
            assert a is not None and b is not None
            winners[state.slot.id] = rng.choice((a, b))
    assert champion(plan, winners, gone) not in gone
    states = bracket_state(plan, winners, gone).values()
    assert all(s.loser in gone for s in states if s.forfeit)
    assert sorted(final_ranking(plan, winners, gone)) == seeds


def test_a_plan_is_rebuilt_from_format_seeds_and_option() -> None:
    seeds = [5, 3, 9, 1, 7]
    assert plan_bracket(Format.SINGLE, seeds, third_place=True) == single_elimination(seeds, third_place=True)
    assert plan_bracket(Format.DOUBLE, seeds) == double_elimination(seeds)
