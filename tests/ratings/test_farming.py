"""Ratings nobody can farm (``docs/rules.md`` §7, ``ratings.farming``), tried with two accounts of
one person: a rated game left too early moves no rating and goes into the ledger; a pair that
keeps playing stops moving ratings; what a match did not count for is shown on its pages and
replayed by the recompute."""

from __future__ import annotations

import random

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import User
from games import early
from games.engine import Rules
from games.models import Match, RatedQuit
from play import selectors, services
from play.services import clock
from ratings.models import Rating, RatingChange, UnratedMatch
from ratings.services import ratings_differences, ratings_recompute
from ratings.tasks import rate_match
from tests.play.services_support import make_user, play_default, state_of

from .builders import finished_match, make_users, minutes

pytestmark = pytest.mark.django_db

TWO = Rules.for_variant("podkidnoy", players=2)


def rated_match(a: User, b: User) -> Match:
    table = services.table_create(creator=a, rules=TWO, rated=True)
    services.table_join(table_id=table.pk, user=b)
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None and match.is_active
    return match


def rating_of(user: User) -> float | None:
    return Rating.objects.filter(user=user).values_list("rating", flat=True).first()


@override_settings(GAMES_RATED_MIN_MOVES=3, GAMES_RATED_QUITS=10)
def test_five_instant_resignations_move_no_rating_and_fill_the_ledger() -> None:
    """The issue's farm: five rated games the second account resigns at once gave 1500 -> 1580."""
    main, second = make_user("main"), make_user("second")
    for _ in range(5):
        match = rated_match(main, second)
        services.match_resign(match_id=match.pk, user=second)
        rate_match(match.pk)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert UnratedMatch.objects.get(match=match).reason == "early"
    assert not RatingChange.objects.exists()
    assert rating_of(main) is None and rating_of(second) is None
    assert RatedQuit.objects.filter(user=second).count() == 5
    assert not RatedQuit.objects.filter(user=main).exists()


@override_settings(GAMES_RATED_MIN_MOVES=3)
def test_a_resignation_after_one_move_each_is_still_too_early_and_after_three_it_counts() -> None:
    a, b = make_user("a"), make_user("b")
    match = rated_match(a, b)
    play_default(match)
    play_default(match)  # both seats have moved once (the attacker led, the defender answered)
    services.match_resign(match_id=match.pk, user=b)
    rate_match(match.pk)
    assert UnratedMatch.objects.filter(match=match, reason="early").exists()
    assert RatedQuit.objects.filter(user=b, match=match).exists()

    later = rated_match(a, b)
    for _ in range(40):
        if not early.too_early(early.own_moves([later.pk]).get(later.pk, {}), range(2), 3):
            break
        play_default(later)
    services.match_resign(match_id=later.pk, user=b)
    rate_match(later.pk)
    assert not UnratedMatch.objects.filter(match=later).exists()
    assert RatingChange.objects.filter(match=later).count() == 2
    assert not RatedQuit.objects.filter(match=later).exists()
    after = rating_of(a)
    assert after is not None and after > 1500


@override_settings(GAMES_RATED_MIN_MOVES=3)
def test_a_player_absent_from_the_deal_times_out_into_the_ledger_and_the_game_is_not_rated() -> None:
    present, absent = make_user("present"), make_user("absent")
    match = rated_match(present, absent)
    seats = {p.seat: p.user_id for p in match.players.all()}
    for _ in range(40):
        match.refresh_from_db()
        if not match.is_active:
            break
        awaited = state_of(match).awaiting()
        if any(seats[seat] == absent.pk for seat in awaited):
            assert clock.match_timeout(match_id=match.pk, version=match.version)
        else:
            play_default(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result is not None
    assert match.result["reason"] == "forfeit"
    rate_match(match.pk)
    assert UnratedMatch.objects.get(match=match).reason == "early"
    assert list(RatedQuit.objects.values_list("user__username", flat=True)) == ["absent"]


@override_settings(GAMES_RATED_MIN_MOVES=3)
def test_the_match_page_and_the_history_say_the_game_was_not_rated(client: Client) -> None:
    a, b = make_user("a"), make_user("b")
    match = rated_match(a, b)
    services.match_resign(match_id=match.pk, user=b)
    rate_match(match.pk)
    client.force_login(a)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "Not rated: ended too early." in page and 'data-ratings="unrated"' in page
    assert "being computed" not in page
    record = client.get(reverse("match_record", args=[match.pk])).content.decode()
    assert "not rated: ended too early" in record and "being rated" not in record


@override_settings(RATINGS_PAIR_GAMES=3, RATINGS_PAIR_WINDOW_HOURS=24, GAMES_RATED_MIN_MOVES=3)
def test_a_pair_stops_moving_ratings_after_three_games_a_day_and_others_still_count() -> None:
    rng = random.Random(35)
    a, b, c = make_users(3)
    played = [
        finished_match([a, b], TWO, seed=f"pair-{n}", rng=rng, finished_at=minutes(n)) for n in range(5)
    ]
    with_c = finished_match([a, c], TWO, seed="other", rng=rng, finished_at=minutes(6))
    next_day = finished_match([b, a], TWO, seed="later", rng=rng, finished_at=minutes(2 + 24 * 60))
    for match in [*played, with_c, next_day]:
        rate_match(match.pk)
    reasons = dict(UnratedMatch.objects.values_list("match_id", "reason"))
    assert [reasons.get(m.pk) for m in played] == [None, None, None, "repeat", "repeat"]
    assert with_c.pk not in reasons  # a's games with someone else still count
    # A day after: the first two of the three rated ones have left the window, so it counts.
    assert next_day.pk not in reasons
    assert Rating.objects.get(user=a).games == 5
    assert ratings_differences(ratings_recompute()) == []


@override_settings(RATINGS_PAIR_GAMES=1, GAMES_RATED_MIN_MOVES=3)
def test_a_pair_inside_a_bigger_table_is_held_too() -> None:
    rng = random.Random(7)
    a, b, c, d = make_users(4)
    four = Rules.for_variant("podkidnoy", players=4)
    first = finished_match([a, b], TWO, seed="duel", rng=rng, finished_at=minutes(0))
    table = finished_match([c, a, d, b], four, seed="four", rng=rng, finished_at=minutes(5))
    for match in (first, table):
        rate_match(match.pk)
    assert UnratedMatch.objects.get(match=table).reason == "repeat"
    assert not RatingChange.objects.filter(match=table).exists()


@override_settings(GAMES_RATED_MIN_MOVES=3)
def test_a_game_played_to_its_end_is_rated_however_short_the_window() -> None:
    rng = random.Random(3)
    a, b = make_users(2)
    match = finished_match([a, b], TWO, seed="whole", rng=rng, finished_at=minutes(0))
    rate_match(match.pk)
    assert RatingChange.objects.filter(match=match).count() == 2
