"""Ratings applied exactly once, in match-end order, and reproducible from the history
(issue 5, "Exactly once"; the arithmetic itself is pinned in test_elo.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.engine import Rules
from games.models import Match
from ratings.elo import START_RATING
from ratings.models import Rating, RatingChange, UnratedMatch
from ratings.services import (
    applied_order,
    match_changes,
    match_rate,
    ratings_differences,
    ratings_recompute,
)
from ratings.tasks import rate_match

from .builders import finished_match, make_users, minutes

pytestmark = pytest.mark.django_db

TWO = Rules.for_variant("podkidnoy", players=2)


def test_the_task_run_twice_changes_once() -> None:
    users = make_users(2)
    match = finished_match(users, TWO, seed="twice", rng=random.Random(1))
    assert rate_match(match.pk) is True
    first = list(Rating.objects.order_by("user_id").values_list("rating", "games"))
    assert rate_match(match.pk) is False
    assert list(Rating.objects.order_by("user_id").values_list("rating", "games")) == first
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sorted(games for _rating, games in first) == [1, 1]


def test_a_two_player_game_moves_both_by_twenty() -> None:
    """Two newcomers (K = 40): the winner +20, the fool -20, both counted in the pool."""
    users = make_users(2)
    match = finished_match(users, TWO, seed="duel", rng=random.Random(2))
    match_rate(match.pk)
    assert match.result is not None
    fool = match.result["fool"]
    for player in match.players.all():
        rating = Rating.objects.get(user=player.user, pool="podkidnoy:2")
        assert rating.rating == pytest.approx(START_RATING + (-20 if player.seat == fool else 20))
        assert (rating.games, rating.fools, rating.wins) == (
            1,
            int(player.seat == fool),
            int(player.seat != fool),
        )


def test_casual_and_unfinished_matches_are_not_rated() -> None:
    users = make_users(2)
    casual = finished_match(users, TWO, seed="casual", rng=random.Random(3), rated=False)
    assert match_rate(casual.pk) is False
    assert match_rate(10_000) is False
    assert not Rating.objects.exists()


def test_a_later_task_first_applies_the_earlier_match_first() -> None:
    """Match-end order: when the second match's task arrives first, the first match is applied
    before it, so the result equals applying them in the order they ended."""
    users = make_users(2)
    first = finished_match(users, TWO, seed="a", rng=random.Random(4), finished_at=minutes(1))
    second = finished_match(users, TWO, seed="b", rng=random.Random(5), finished_at=minutes(2))
    assert match_rate(second.pk) is True
    assert match_rate(first.pk) is False
    seqs = dict(RatingChange.objects.values_list("match_id", "seq").distinct())
    assert seqs[first.pk] < seqs[second.pk]
    assert ratings_differences(ratings_recompute()) == []


def test_a_match_committed_after_a_later_one_was_rated_replays_in_applied_order() -> None:
    """The race of two matches ending milliseconds apart: the one that ended first commits after
    the other's task has run, so it is applied second. The replay follows the applied order and
    finds no difference (replaying by end time would: each player's second game then has K and a
    rating from the other match)."""
    users = make_users(2)
    # Seat 0 loses the first, seat 1 the second: the two orders give different ratings.
    first = finished_match(users, TWO, seed="a", rng=random.Random(7), finished_at=minutes(1), forfeits=[0])
    Match.objects.filter(pk=first.pk).update(status=Match.Status.ACTIVE)  # not committed yet
    second = finished_match(users, TWO, seed="b", rng=random.Random(8), finished_at=minutes(2), forfeits=[1])
    assert match_rate(second.pk) is True
    Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED)  # its commit lands
    assert match_rate(first.pk) is True
    seqs = dict(RatingChange.objects.values_list("match_id", "seq").distinct())
    assert seqs[second.pk] < seqs[first.pk]
    assert list(applied_order()) == [second, first]
    assert ratings_differences(ratings_recompute()) == []


def test_a_leaver_counts_as_the_fool() -> None:
    """Seat 0 resigns in a three-player game: whatever the cards said, it is last alone."""
    users = make_users(3)
    rules = Rules.for_variant("podkidnoy", players=3)
    match = finished_match(users, rules, seed="leave", rng=random.Random(6), forfeits=[0])
    assert match.result is not None and match.result["places"][-1] == [0]
    match_rate(match.pk)
    change = RatingChange.objects.get(match=match, user=users[0])
    assert change.outcome == "fool"
    assert change.delta == pytest.approx(-20.0)  # 40/2 × (0 - 0.5) × 2


def test_teams_move_partners_together() -> None:
    """2 vs 2 at 1500: the winners +20 each, the losers -20 each (K = 40, E = 0.5)."""
    result = {"places": [[0], [2], [1, 3]], "fool": None, "losing_team": [1, 3], "draw": False}
    changes = match_changes(
        result, teams=True, ratings=dict.fromkeys(range(4), 1500.0), games=dict.fromkeys(range(4), 0)
    )
    assert changes == {0: 20.0, 2: 20.0, 1: -20.0, 3: -20.0}
    drawn = {**result, "losing_team": None, "draw": True}
    assert set(
        match_changes(
            drawn, teams=True, ratings=dict.fromkeys(range(4), 1500.0), games=dict.fromkeys(range(4), 0)
        ).values()
    ) == {0.0}


POOL_RULES = [
    Rules.for_variant("podkidnoy", players=2),
    Rules.for_variant("podkidnoy", players=3),
    Rules.for_variant("perevodnoy", players=4),
    Rules.for_variant("perevodnoy", players=4, teams=True),
    Rules.for_variant("circle", players=2),
    Rules.for_variant("podkidnoy", players=5),
]


def test_recompute_equals_the_incremental_result_over_random_matches(capsys: Any) -> None:
    """300 random matches over six pools and twelve players, with leavers, rated by tasks that
    arrive in a shuffled order (some not counting: ``ratings.farming``): the command replays the
    history and finds no difference."""
    rng = random.Random(2026)
    users = make_users(12)
    matches = []
    for n in range(300):
        rules = POOL_RULES[n % len(POOL_RULES)]
        seated = rng.sample(users, rules.players)
        forfeits = [rng.randrange(rules.players)] if rng.random() < 0.1 else []
        matches.append(
            finished_match(
                seated,
                rules,
                seed=f"soak-{n}",
                rng=rng,
                finished_at=minutes(n),
                forfeits=forfeits,
                with_moves=False,
            )
        )
    order = list(matches)
    rng.shuffle(order)
    for match in order:
        rate_match(match.pk)
    unrated = set(UnratedMatch.objects.values_list("match_id", flat=True))
    assert unrated  # twelve players meet often: repeated pairs (and early leavers) do not count
    rated = [m for m in matches if m.pk not in unrated]
    assert RatingChange.objects.count() == sum(Rules.from_dict(m.rules).players for m in rated)
    assert ratings_differences(ratings_recompute()) == []
    call_command("recompute_ratings")
    assert "match the match history" in capsys.readouterr().out
    # Every change chains: each player's next "before" is their previous "after".
    last: dict[tuple[int, str], float] = {}
    for change in RatingChange.objects.order_by("seq"):
        key = (change.user_id, change.pool)
        assert change.before == pytest.approx(last.get(key, START_RATING))
        last[key] = change.after

    first = Rating.objects.first()
    assert first is not None
    Rating.objects.filter(pk=first.pk).update(rating=1234.0)
    with pytest.raises(CommandError):
        call_command("recompute_ratings")
