"""The practice game at a lesson's end (issue #40 §1): a casual game against easy bots at the
lesson's own table, its variant with the options it taught and as many players as its positions
need, not the variant's defaults; dealt through the lobby's "play bots now" door."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.engine import GameState, Rules
from games.models import Match
from learn.lessons import BY_SLUG, LESSONS, Lesson
from tests.learn.test_pages import answer, finish, right_answer
from tests.play.services_support import make_user

LESSON_PARAMS = [pytest.param(lesson, id=lesson.slug) for lesson in LESSONS]


@pytest.mark.parametrize("lesson", LESSON_PARAMS)
def test_the_practice_table_is_the_one_the_lessons_positions_are_played_at(lesson: Lesson) -> None:
    """Every table option a step's position sets is the practice table's, and the table seats as
    many players as the largest position."""
    states = [GameState.from_position(step.position) for step in lesson.steps]
    assert lesson.practice.players == max(state.rules.players for state in states)
    for state in states:
        assert state.rules.variant == lesson.variant
        defaults = Rules.for_variant(lesson.variant, players=state.rules.players)
        for option in Rules.options_for(lesson.variant):
            if option.name != "players" and getattr(state.rules, option.name) != getattr(
                defaults, option.name
            ):
                assert getattr(lesson.practice, option.name) == getattr(state.rules, option.name), option.name


def test_some_lessons_practise_more_than_a_variants_defaults() -> None:
    taught = {lesson.slug: dict(lesson.practice_options) for lesson in LESSONS if lesson.practice_options}
    assert taught == {
        "who-throws-in": {"throw_in": "neighbours"},
        "transfer": {"transfer_by_trump_show": "true"},
        "circle-playing-out": {"jokers": "2"},
    }


def hidden_inputs(html: str) -> dict[str, str]:
    """The practise form's fields, as a browser would post them (its CSRF token aside)."""
    form = html[html.index('class="learn-practise__form"') :]
    form = form[: form.index("</form>")]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    fields.pop("csrfmiddlewaretoken", None)
    return fields


@pytest.mark.django_db
@pytest.mark.parametrize("lesson", LESSON_PARAMS)
def test_practise_deals_the_lessons_table_against_easy_bots(lesson: Lesson) -> None:
    cache.clear()
    olga = make_user("olga")
    client = Client()
    client.force_login(olga)
    html = finish(client, lesson.slug)
    response = client.post(reverse("games:bot_game"), hidden_inputs(html))
    assert response.status_code == 302
    match = Match.objects.get()
    assert Rules.from_dict(match.rules) == lesson.practice
    bots = [player.user for player in match.players.select_related("user") if player.user != olga]
    assert len(bots) == lesson.practice.players - 1 and {bot.bot_level for bot in bots} == {"easy"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("slug", "language", "says"),
    [
        ("who-throws-in", "en", "against 3 easy bots"),
        ("who-throws-in", "ru", "с 3 лёгкими ботами"),
        ("circle-playing-out", "en", "against 2 easy bots"),
        ("transfer", "en", "against an easy bot"),
        ("transfer", "ru", "с лёгким ботом"),
    ],
)
def test_the_practise_panel_counts_the_bots_its_table_seats(slug: str, language: str, says: str) -> None:
    cache.clear()
    client = Client()
    client.force_login(make_user("olga"))
    finish(client, slug)
    client.cookies["django_language"] = language
    steps = BY_SLUG[slug].steps
    assert says in answer(client, slug, len(steps), right_answer(steps[-1]))  # the last step again
