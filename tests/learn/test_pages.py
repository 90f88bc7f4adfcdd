"""The lessons' pages (issue #40 §1): progress kept for an account and for a visitor, the home
page's panel for newcomers, the rules page's links to the lessons, the practise button, the limit
on answers and refusals of bad input with a message, never a 500."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from games.engine import card_str
from learn.checking import accepts, step_state
from learn.lessons import BY_SLUG, LESSONS, Step
from learn.models import LessonProgress
from tests.play.services_support import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    cache.clear()


def answer(client: Client, slug: str, number: int, data: dict[str, object]) -> str:
    response = client.post(reverse("learn:answer", args=[slug, number]), data)
    return response.content.decode()


def finish(client: Client, slug: str) -> str:
    """Answer every step of the lesson ``slug`` right (the tests of test_lessons prove the moves);
    the page after the last answer."""
    html = ""
    for number, step in enumerate(BY_SLUG[slug].steps, start=1):
        html = answer(client, slug, number, right_answer(step))
        assert "Right!" in html
    return html


def right_answer(step: Step) -> dict[str, object]:
    """The form's fields of a move the step accepts."""
    right = next(a for a in step_state(step).legal_actions(step.seat) if accepts(step, a))
    data: dict[str, object] = {"kind": right.kind, "cards": [card_str(c) for c in right.cards]}
    if right.target is not None:
        data["target"] = card_str(right.target)
    return data


def test_an_accounts_progress_is_kept_and_the_lesson_ends_with_a_practice_game() -> None:
    olga = make_user("olga")
    client = Client()
    client.force_login(olga)
    assert "Right!" in answer(client, "trumps", 1, {"kind": "cover", "cards": ["7D"], "target": "AS"})
    row = LessonProgress.objects.get(user=olga, lesson="trumps")
    assert (row.reached, row.done) == (1, False)
    # The lesson opens at the first step not answered yet.
    assert "Step 2 of 2" in client.get(reverse("learn:lesson", args=["trumps"])).content.decode()
    html = answer(client, "trumps", 2, {"kind": "cover", "cards": ["10D"], "target": "8D"})
    row.refresh_from_db()
    assert (row.reached, row.done) == (2, True)
    assert f'action="{reverse("games:bot_game")}"' in html
    assert 'name="variant" value="podkidnoy"' in html and 'name="level" value="easy"' in html
    # Answering an earlier step again never takes progress back.
    answer(client, "trumps", 1, {"kind": "cover", "cards": ["7D"], "target": "AS"})
    row.refresh_from_db()
    assert (row.reached, row.done) == (2, True)
    index = client.get(reverse("learn:index")).content.decode()
    assert "1 of 11 lessons finished" in index


def test_a_visitors_progress_is_kept_in_the_session_and_practise_asks_to_log_in() -> None:
    client = Client()
    finish(client, "transfer")
    assert client.session["learn_progress"] == {"transfer": [3, True]}
    page = client.get(reverse("learn:lesson", args=["transfer"]) + "?step=3").content.decode()
    assert "Step 3 of 3" in page
    html = answer(client, "transfer", 3, {"kind": "cover", "cards": ["KS"], "target": "8S"})
    assert "Log in to practise it" in html
    assert LessonProgress.objects.count() == 0


def test_the_home_page_offers_the_lessons_to_newcomers_with_their_progress() -> None:
    visitor = Client()
    html = visitor.get(reverse("home")).content.decode()
    assert "Learn to play" in html and "0 of 11 lessons finished" in html
    assert f'href="{reverse("learn:lesson", args=[LESSONS[0].slug])}"' in html
    finish(visitor, "trumps")
    html = visitor.get(reverse("home")).content.decode()
    assert "1 of 11 lessons finished" in html and "Go on: Covering" in html
    member = Client()
    member.force_login(make_user("ivan"))
    member.cookies["django_language"] = "ru"
    html = member.get(reverse("home")).content.decode()
    assert "Научиться играть" in html and "Начать первый урок" in html


def test_the_rules_page_links_each_taught_section_to_its_lessons() -> None:
    for language, words in (("en", "Learn it:"), ("ru", "Урок:")):
        client = Client()
        client.cookies["django_language"] = language
        html = client.get(reverse("rules")).content.decode()
        assert html.count('class="rules-lessons"') == 5
        for lesson in LESSONS:
            assert f'href="{reverse("learn:lesson", args=[lesson.slug])}"' in html
        assert words in html
    english = Client().get(reverse("rules")).content.decode()
    assert english.index('id="transfer"') < english.index('href="/learn/transfer/"')


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "fly"}, "Select a valid choice"),
        ({"kind": "cover", "cards": ["ZZ"], "target": "AS"}, "That is not a card of this game."),
        ({"kind": "cover", "cards": ["7D"]}, "Choose one card of your hand and the card it should beat."),
        ({"kind": "attack"}, "Choose a card of your hand first."),
        ({"kind": "show", "cards": ["7D", "9H"]}, "Choose the one trump to show."),
        ({"kind": "attack", "cards": ["AH"]}, "you do not hold A♥"),
    ],
)
def test_bad_input_gets_a_clear_message(data: dict[str, object], message: str) -> None:
    client = Client()
    response = client.post(reverse("learn:answer", args=["trumps", 1]), data)
    assert response.status_code in (200, 400)
    assert message in response.content.decode()
    htmx = client.post(reverse("learn:answer", args=["trumps", 1]), data, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200 and message in htmx.content.decode()


def test_unknown_lessons_and_steps_are_not_found() -> None:
    client = Client()
    assert client.get(reverse("learn:lesson", args=["nope"])).status_code == 404
    assert client.post(reverse("learn:answer", args=["trumps", 9]), {"kind": "take"}).status_code == 404
    assert client.get(reverse("learn:answer", args=["trumps", 1])).status_code == 405
    assert "Step 2 of 2" in client.get(reverse("learn:lesson", args=["trumps"]) + "?step=99").content.decode()
    assert "Step 1 of 2" in client.get(reverse("learn:lesson", args=["trumps"]) + "?step=x").content.decode()


@override_settings(LEARN_ANSWER_RATE=(3, 60))
def test_answers_are_limited_per_account() -> None:
    client = Client()
    client.force_login(make_user("olga"))
    take = {"kind": "take"}
    for _ in range(3):
        assert client.post(reverse("learn:answer", args=["trumps", 1]), take).status_code == 200
    refused = client.post(reverse("learn:answer", args=["trumps", 1]), take)
    assert refused.status_code == 429 and "too fast" in refused.content.decode()


@override_settings(LEARN_ANSWER_RATE=(1, 60))
def test_answers_are_limited_per_address_without_reading_anything(django_assert_num_queries: object) -> None:
    client = Client()
    take = {"kind": "take"}
    for _ in range(4):  # an address may send four times an account's allowance
        client.post(reverse("learn:answer", args=["trumps", 1]), take, HTTP_HX_REQUEST="true")
    with django_assert_num_queries(0):  # type: ignore[operator]
        refused = client.post(reverse("learn:answer", args=["trumps", 1]), take, HTTP_HX_REQUEST="true")
    assert "too fast" in refused.content.decode()
