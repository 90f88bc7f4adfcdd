"""Bots start at their level's measured strength, are rated like anyone from there, and are listed
apart from people on the leaderboard."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import BUILT_IN_BOT_LEVELS, User
from accounts.services import bot_ensure
from games.engine import Rules
from ratings.elo import START_RATING
from ratings.models import Rating, RatingChange
from ratings.services import match_rate, ratings_differences, ratings_recompute
from ratings.starts import BOT_START_RATINGS, MEASUREMENTS, fit_start_ratings, start_rating
from tournaments.selectors import seed_rating

from .builders import finished_match, make_users, minutes

pytestmark = pytest.mark.django_db

TWO = Rules.for_variant("podkidnoy", players=2)
POOL = "podkidnoy:2"


def test_the_starts_are_the_fit_of_the_measurements_rounded_to_five() -> None:
    fitted = fit_start_ratings(MEASUREMENTS)
    assert {level: 5 * round(value / 5) for level, value in fitted.items()} == BOT_START_RATINGS


def test_every_level_has_a_start_and_they_rise_with_strength() -> None:
    assert set(BOT_START_RATINGS) == set(BUILT_IN_BOT_LEVELS)
    order = [BOT_START_RATINGS[level] for level in ("random", "easy", "medium", "strong")]
    assert order == sorted(order) and len(set(order)) == 4
    assert BOT_START_RATINGS["easy"] == START_RATING  # the anchor


def test_people_start_at_1500_and_bots_at_their_level() -> None:
    person = make_users(1)[0]
    assert start_rating(person) == START_RATING
    for level in map(User.BotLevel, BUILT_IN_BOT_LEVELS):
        bot, _created = bot_ensure(level=level)
        assert start_rating(bot) == BOT_START_RATINGS[level.value]


def test_beating_the_random_bot_is_worth_little() -> None:
    """A newcomer who beats the random bot gains about a point, not the 20 of an even game."""
    person = make_users(1)[0]
    bot, _created = bot_ensure(level=User.BotLevel.RANDOM)
    match = finished_match([person, bot], TWO, seed="farm", rng=random.Random(3))
    assert match.result is not None
    match_rate(match.pk)
    bot_change = RatingChange.objects.get(match=match, user=bot)
    person_change = RatingChange.objects.get(match=match, user=person)
    assert bot_change.before == BOT_START_RATINGS["random"]
    assert person_change.before == START_RATING
    if match.result["fool"] == 1:  # the person won
        assert 0 < person_change.delta < 2
    bot_row = Rating.objects.get(user=bot, pool=POOL)
    assert bot_row.games == 1 and bot_row.rating == pytest.approx(bot_change.after)


def test_a_bots_first_rating_row_is_its_level_start_plus_its_first_game() -> None:
    bot, _created = bot_ensure(level=User.BotLevel.STRONG)
    assert not Rating.objects.filter(user=bot).exists()  # no row before it plays
    person = make_users(1)[0]
    match = finished_match([bot, person], TWO, seed="strong", rng=random.Random(4))
    match_rate(match.pk)
    change = RatingChange.objects.get(match=match, user=bot)
    assert change.before == BOT_START_RATINGS["strong"]
    row = Rating.objects.get(user=bot, pool=POOL)
    assert row.best == max(BOT_START_RATINGS["strong"], row.rating)


def test_recomputing_from_the_history_starts_bots_the_same_way() -> None:
    people = make_users(3)
    bots = [bot_ensure(level=level)[0] for level in map(User.BotLevel, BUILT_IN_BOT_LEVELS)]
    rng = random.Random(5)
    for n in range(8):
        pair = [people[n % 3], bots[n % 4]]
        match = finished_match(pair, TWO, seed=f"r{n}", rng=rng, finished_at=minutes(n))
        match_rate(match.pk)
    assert ratings_differences(ratings_recompute()) == []


def test_a_bot_without_a_rating_is_seeded_at_its_level_start() -> None:
    bot, _created = bot_ensure(level=User.BotLevel.MEDIUM)
    assert seed_rating(bot, TWO) == BOT_START_RATINGS["medium"]


def test_the_leaderboard_lists_bots_apart_and_marks_them(client: Client) -> None:
    person = make_users(1)[0]
    bot, _created = bot_ensure(level=User.BotLevel.EASY)
    Rating.objects.create(user=person, pool=POOL, rating=1400, games=25, best=1450)
    Rating.objects.create(user=bot, pool=POOL, rating=1600, games=40, best=1650)
    response = client.get(reverse("leaderboard"), {"pool": POOL})
    assert response.status_code == 200
    assert [row.user for row in response.context["page"].object_list] == [person]  # people only
    assert [row.user for row in response.context["bots"]] == [bot]
    page = response.content.decode()
    bots_section = page[page.index('id="bots-title"') :]
    assert "Bot Easy" in bots_section and 'class="badge"' in bots_section
    assert "Bot Easy" not in page[: page.index('id="bots-title"')]


def test_a_bots_profile_chart_starts_at_its_level(client: Client) -> None:
    bot, _created = bot_ensure(level=User.BotLevel.RANDOM)
    person = make_users(1)[0]
    match = finished_match([person, bot], TWO, seed="chart", rng=random.Random(6))
    match_rate(match.pk)
    response = client.get(reverse("club:profile", args=[bot.pk]))
    assert response.status_code == 200
    chart = response.context["ratings"][0]["chart"]
    ticks = [label for _y, label in chart.ticks]
    assert min(ticks) <= BOT_START_RATINGS["random"] <= max(ticks)
