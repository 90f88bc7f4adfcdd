"""Evaluations on the analysis board (issue 40, §3): each legal move's chance, from one seat's
information or with every card shown, run step by step as the worker would; the limits; the
page's progress fragment."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from analysis.models import Evaluation
from analysis.services import (
    EVALUATION_STEP_TASK,
    LOST_AFTER,
    EvaluationRefused,
    evaluation_request,
    evaluations_lost,
    judge,
)
from analysis.tasks import evaluation_step_task
from durak_site.celery import app as celery_app
from games.engine import GameState
from tests.play.services_support import task_sends
from tests.ratings.builders import make_users

pytestmark = pytest.mark.django_db

#: Seat 0 leads against seat 1 with three cards each: a handful of moves, each quick to judge.
START = "podkidnoy trump=6D hands=9S,AC,7H/8C,10D,6H attacker=0"
#: The same, with the stock still on: the seat's own information hides seat 1's hand and the stock.
HIDDEN = "podkidnoy trump=6D hands=9S,AC,7H,8S,QH,KC/8C,10D,6H,JS,QS,9C stock=7C,7D,8D,9H,6D attacker=0"


@pytest.fixture(autouse=True)
def _small_search(settings: Any) -> None:
    settings.HISTORY_REVIEW_ITERATIONS = 30
    settings.ANALYSIS_EVALUATION_RATE = (3, 3600)
    cache.clear()


Sends = Callable[[], AbstractContextManager[mock.Mock]]


@pytest.fixture
def sends(django_capture_on_commit_callbacks: Any) -> Sends:
    @contextmanager
    def catching() -> Iterator[mock.Mock]:
        with task_sends(EVALUATION_STEP_TASK) as sent, django_capture_on_commit_callbacks(execute=True):
            yield sent

    return catching


@pytest.fixture
def user() -> User:
    return make_users(1, prefix="ev")[0]


def _run(sends: Sends, evaluation: Evaluation) -> Evaluation:
    """Run each sent step as a worker would (the task itself, eagerly) until none is sent."""
    runs = 0
    while True:
        with sends() as sent:
            evaluation_step_task(evaluation.pk)
        runs += 1
        assert runs <= evaluation.total + 1
        if not sent.call_count:
            break
    evaluation.refresh_from_db()
    return evaluation


@pytest.mark.parametrize(
    ("position", "open_cards"), [(START, True), (START, False), (HIDDEN, False), (HIDDEN, True)]
)
def test_every_legal_move_gets_a_chance_in_0_1(
    user: User, sends: Sends, position: str, open_cards: bool
) -> None:
    with sends() as sent:
        evaluation = evaluation_request(user=user, position=position, seat=0, open_cards=open_cards)
    assert sent.call_count == 1 and evaluation.status == Evaluation.Status.PENDING
    done = _run(sends, evaluation)
    legal = [str(a) for a in GameState.from_position(position).legal_actions(0)]
    assert done.status == Evaluation.Status.DONE and done.done == done.total == len(legal)
    assert [r["move"] for r in done.judgements] == legal
    assert all(0.0 <= r["p"] <= 1.0 and r["samples"] == 30 for r in done.judgements)


def test_the_page_lists_the_moves_best_first(user: User, sends: Sends, client: Client) -> None:
    client.force_login(user)
    with sends():
        response = client.post(
            reverse("analysis:evaluate"),
            {"position": START, "seat": "0", "open": "1"},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200 and b"every 1s" in response.content  # polls while pending
    evaluation = Evaluation.objects.get(user=user)
    assert evaluation.open
    _run(sends, evaluation)
    page = client.get(reverse("analysis:evaluation", args=[evaluation.pk]), HTTP_HX_REQUEST="true")
    chances = [r["p"] for r in page.context["judgements"]]
    assert chances == sorted(chances, reverse=True) and len(chances) == evaluation.total
    assert b"every 1s" not in page.content


def test_one_at_a_time_and_a_few_an_hour(user: User, sends: Sends) -> None:
    with sends():
        first = evaluation_request(user=user, position=START, seat=0, open_cards=False)
    with pytest.raises(EvaluationRefused, match="still running"):
        evaluation_request(user=user, position=START, seat=0, open_cards=False)
    _run(sends, first)
    for _ in range(2):
        with sends():
            _run(sends, evaluation_request(user=user, position=START, seat=0, open_cards=False))
    with pytest.raises(EvaluationRefused, match="many evaluations lately"):
        evaluation_request(user=user, position=START, seat=0, open_cards=False)


@pytest.mark.parametrize(
    ("position", "seat", "reason"),
    [("nonsense", 0, "not possible"), (START, 1, "no move here"), (START, 7, "no move here")],
)
def test_a_refused_request_queues_nothing(
    user: User, sends: Sends, position: str, seat: int, reason: str
) -> None:
    with sends() as sent, pytest.raises(EvaluationRefused, match=reason):
        evaluation_request(user=user, position=position, seat=seat, open_cards=True)
    assert sent.call_count == 0 and not Evaluation.objects.exists()


def test_visitors_must_sign_in_and_nobody_reads_anothers(user: User, sends: Sends, client: Client) -> None:
    response = client.post(reverse("analysis:evaluate"), {"position": START, "seat": "0"})
    assert response.status_code == 302 and not Evaluation.objects.exists()
    with sends():
        evaluation = evaluation_request(user=user, position=START, seat=0, open_cards=False)
    client.force_login(make_users(1, prefix="other")[0])
    assert client.get(reverse("analysis:evaluation", args=[evaluation.pk])).status_code == 404
    bad = client.post(reverse("analysis:evaluate"), {"position": START, "seat": "x"})
    assert bad.status_code == 400


def test_the_step_is_routed_to_the_reviews_queue() -> None:
    route = celery_app.conf.task_routes[EVALUATION_STEP_TASK]
    assert route == {"queue": "reviews"}


def test_the_seats_own_information_never_depends_on_cards_it_cannot_see() -> None:
    """Seat 0's chances are the same whatever seat 1 holds and the stock's order, for cards seat 0
    cannot see; with every card shown they may differ (the user's own text shows them)."""
    other = HIDDEN.replace("JS", "XX").replace("7C", "JS").replace("XX", "7C")
    one, two = GameState.from_position(HIDDEN), GameState.from_position(other)
    assert one.position() != two.position()
    for action in one.legal_actions(0):
        first = judge(one, 0, action, open_cards=False, seed="same", iterations=40)
        second = judge(two, 0, action, open_cards=False, seed="same", iterations=40)
        assert first == second


def test_without_script_the_evaluate_form_gives_the_whole_board(
    user: User, sends: Sends, client: Client
) -> None:
    client.force_login(user)
    with sends():
        page = client.post(reverse("analysis:evaluate"), {"position": START, "seat": "0"})
    assert (
        page.status_code == 200
        and page.context["board"].position == GameState.from_position(START).position()
    )
    assert b'data-status="pending"' in page.content


def _lose(evaluation: Evaluation, minutes: float) -> None:
    """Leave the evaluation untouched for ``minutes``, as when its step was lost with a worker."""
    Evaluation.objects.filter(pk=evaluation.pk).update(updated=timezone.now() - timedelta(minutes=minutes))


def test_a_lost_evaluation_is_failed_when_its_page_polls(user: User, sends: Sends, client: Client) -> None:
    client.force_login(user)
    with sends():
        evaluation = evaluation_request(user=user, position=START, seat=0, open_cards=True)
    url = reverse("analysis:evaluation", args=[evaluation.pk])
    # A step that is only slow is waited for.
    _lose(evaluation, LOST_AFTER.total_seconds() / 60 - 1)
    page = client.get(url, HTTP_HX_REQUEST="true")
    assert b'data-status="pending"' in page.content and b"every 1s" in page.content
    _lose(evaluation, LOST_AFTER.total_seconds() / 60 + 1)
    page = client.get(url, HTTP_HX_REQUEST="true")
    assert b'data-status="failed"' in page.content and b"every 1s" not in page.content
    assert "The evaluation failed." in page.content.decode()
    # Polled again, or its late step arriving after all: nothing more changes.
    failed = Evaluation.objects.get(pk=evaluation.pk)
    client.get(url, HTTP_HX_REQUEST="true")
    with sends() as sent:
        assert evaluation_step_task(evaluation.pk) is False
    assert sent.call_count == 0
    again = Evaluation.objects.get(pk=evaluation.pk)
    assert (again.status, again.judgements, again.updated) == (Evaluation.Status.FAILED, [], failed.updated)


def test_a_lost_evaluation_does_not_keep_its_owner_from_asking_again(user: User, sends: Sends) -> None:
    with sends():
        lost = evaluation_request(user=user, position=START, seat=0, open_cards=False)
    _lose(lost, LOST_AFTER.total_seconds() / 60 + 1)
    assert evaluations_lost(user=make_users(1, prefix="other")[0]) == 0  # only the owner's are read
    with sends() as sent:
        fresh = evaluation_request(user=user, position=START, seat=0, open_cards=False)
    assert sent.call_count == 1
    lost.refresh_from_db()
    assert lost.status == Evaluation.Status.FAILED
    assert _run(sends, fresh).status == Evaluation.Status.DONE
    assert evaluations_lost(user=user) == 0
