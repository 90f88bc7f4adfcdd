"""Every lesson step, checked by the engine (issue #40 §1): its position reads, the move it asks
for is legal and accepted, a legal move it does not ask for gets the hint, and an illegal move gets
the engine's own sentence of why and the hint, through the page as a learner posts them."""

from __future__ import annotations

import html
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import Action, GameState, card_from_str, card_str
from learn.checking import accepts, judge, step_state
from learn.lessons import BY_SLUG, LESSONS, Lesson, Step, lessons_by_section

STEPS = [
    pytest.param(lesson, number, step, id=f"{lesson.slug}-{number}")
    for lesson in LESSONS
    for number, step in enumerate(lesson.steps, start=1)
]
SECTIONS = {"cards", "bout", "transfer", "circle-collecting", "circle-playing-out"}
TOPICS = {
    "trumps",
    "covering",
    "taking",
    "throwing-in",
    "who-throws-in",
    "passing",
    "the-draw",
    "the-fool",
    "transfer",
    "circle-collecting",
    "circle-playing-out",
}


def candidates(state: GameState, seat: int) -> Iterator[Action]:
    """Moves a learner could try from the board: each card of the hand played, covering or beating
    each target, transferred or shown, and the bare take and pass."""
    view = state.view(seat)
    hand = [*view.hand, *([view.drawn] if view.drawn else [])]
    targets = view.circle if view.stage == 1 else [attack for attack, cover in view.table if cover is None]
    for code in hand:
        card = card_from_str(code)
        yield Action("attack", (card,))
        yield Action("transfer", (card,))
        yield Action("show", (card,))
        for target in targets:
            yield Action("cover", (card,), card_from_str(target))
            yield Action("beat", (card,), card_from_str(target))
    yield Action("take")
    yield Action("pass")


def form_data(action: Action) -> dict[str, object]:
    """The board's form fields for ``action``."""
    data: dict[str, object] = {"kind": action.kind, "cards": [card_str(card) for card in action.cards]}
    if action.target is not None:
        data["target"] = card_str(action.target)
    return data


def post(client: Client, lesson: Lesson, number: int, action: Action) -> str:
    url = reverse("learn:answer", args=[lesson.slug, number])
    response = client.post(url, form_data(action), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_lessons_cover_the_topics_of_the_issue_and_link_rules_sections() -> None:
    assert set(BY_SLUG) == TOPICS
    assert set(lessons_by_section()) == SECTIONS
    assert all(1 <= len(lesson.steps) <= 4 for lesson in LESSONS)
    assert {lesson.variant for lesson in LESSONS} == {"podkidnoy", "perevodnoy", "circle"}


@pytest.mark.parametrize(("lesson", "number", "step"), STEPS)
def test_the_step_reads_and_its_answers_are_legal_and_accepted(
    lesson: Lesson, number: int, step: Step
) -> None:
    state = step_state(step)
    assert GameState.from_position(state.position()).position() == state.position()
    legal = state.legal_actions(step.seat)
    accepted = [action for action in legal if accepts(step, action)]
    assert accepted, "no legal move is what the step asks"
    for notation in step.accept:
        assert Action.parse(notation) in legal, f"{notation} is not legal here"
    for action in accepted:
        verdict = judge(step, action)
        assert verdict.correct and verdict.refusal == "" and verdict.after is not None


@pytest.mark.django_db
@pytest.mark.parametrize(("lesson", "number", "step"), STEPS)
def test_a_wrong_move_gets_the_hint_and_an_illegal_one_the_engine_sentence(
    lesson: Lesson, number: int, step: Step
) -> None:
    client = Client()
    state = step_state(step)
    legal = set(state.legal_actions(step.seat))
    illegal = next(action for action in candidates(state, step.seat) if action not in legal)
    page = post(client, lesson, number, illegal)
    assert "That move is not allowed:" in page and str(step.hint) in page
    assert judge(step, illegal).refusal in page
    wrong = [action for action in legal if not accepts(step, action)]
    for action in wrong[:1]:
        page = post(client, lesson, number, action)
        assert "That move is allowed, but it is not what this step asks." in page
        assert str(step.hint) in page
    right = next(action for action in state.legal_actions(step.seat) if accepts(step, action))
    page = post(client, lesson, number, right)
    assert "Right!" in page and str(step.done) in page and str(step.hint) not in page


@pytest.mark.django_db
def test_the_engine_sentence_is_in_the_learners_language() -> None:
    client = Client()
    client.cookies["django_language"] = "ru"
    lesson = BY_SLUG["trumps"]
    page = post(client, lesson, 1, Action.parse("cover KC>AS"))
    assert "Такой ход не разрешён: K♣ не бьёт A♠." in page
    assert "Подсказка:" in page
