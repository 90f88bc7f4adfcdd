"""Game reviews on the site: asking, the steps of the work, the cache, the rate limit, who may ask
and see, refusals, the page, the history list and the export (issue 20, §1)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from durak_site.celery import app as celery_app
from games.bots.assess import LABELS, assess_record_step
from games.bots.chance import CHANCE_MAP
from games.engine import Rules
from games.models import Match
from history.review import services
from history.review.models import Review, ReviewDecision
from history.review.services import REVIEW_STEP_TASK, ReviewRefused, review_request, review_step
from history.tasks import reviews_sweep
from tests.play.services_support import task_sends
from tests.ratings.builders import finished_match, make_users

pytestmark = pytest.mark.django_db

RULES = Rules.for_variant("podkidnoy", players=2)


@pytest.fixture(autouse=True)
def _small_search(settings: Any) -> None:
    settings.HISTORY_REVIEW_ITERATIONS = 12
    settings.HISTORY_REVIEW_RATE = (3, 3600)


Sends = Callable[[], AbstractContextManager[mock.Mock]]


@pytest.fixture
def sends(django_capture_on_commit_callbacks: Any) -> Sends:
    """Catch the review's step tasks, sent as the transaction commits."""

    @contextmanager
    def catching() -> Iterator[mock.Mock]:
        with task_sends(REVIEW_STEP_TASK) as sent, django_capture_on_commit_callbacks(execute=True):
            yield sent

    return catching


@pytest.fixture
def users() -> list[User]:
    return make_users(4, prefix="rv")


def _match(users: list[User], seed: str = "rv", *, private: bool = False) -> Match:
    match = finished_match(users[:2], RULES, seed=seed, rng=random.Random(seed))
    if private:
        match.table.private = True
        match.table.save(update_fields=["private"])
    return match


def _drain(sends: Sends, review: Review) -> int:
    """Run the review's steps as the worker would, each sending the next; returns the runs."""
    runs = 0
    while True:
        review.refresh_from_db()
        if review.status == Review.Status.DONE:
            return runs
        with sends():
            review_step(review_id=review.pk)
        runs += 1
        assert runs < 500


def _reviewed(sends: Sends, match: Match, user: User, seat: int = 0) -> Review:
    with sends() as sent:
        review = review_request(match_id=match.pk, seat=seat, user=user)
    assert sent.call_count == (1 if review.total else 0)
    _drain(sends, review)
    review.refresh_from_db()
    return review


def test_a_review_stores_every_decision_of_the_seat_with_its_verdict(users: list[User], sends: Sends) -> None:
    match = _match(users)
    review = _reviewed(sends, match, users[0])
    decisions = list(review.decisions.all())
    assert review.status == Review.Status.DONE and review.done == review.total == len(decisions) > 0
    seats = {m.seq: m.seat for m in match.moves.all()}
    assert {seats[d.seq] for d in decisions} == {0}
    for d in decisions:
        assert d.label in LABELS and 0 <= d.p_played <= 1 and 0 <= d.p_best <= 1
        assert d.samples_played > 0 and d.samples_best > 0
        assert (d.label == "good") == (max(0.0, d.p_best - d.p_played) < 0.08)


def test_each_step_sends_the_next_one_until_the_last(users: list[User], sends: Sends) -> None:
    match = _match(users)
    with sends():
        review = review_request(match_id=match.pk, seat=0, user=users[0])
    for n in range(review.total):
        with sends() as sent:
            assert review_step(review_id=review.pk) is True
        assert sent.call_count == (1 if n < review.total - 1 else 0)
    with sends() as sent:
        assert review_step(review_id=review.pk) is False  # done: a late duplicate does nothing
    assert sent.call_count == 0


def test_the_step_task_is_harmless_twice_and_a_duplicate_stores_nothing_twice(
    users: list[User], sends: Sends
) -> None:
    match = _match(users)
    with sends():
        review = review_request(match_id=match.pk, seat=0, user=users[0])
    real = assess_record_step
    calls: list[int] = []

    def racing(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:  # a duplicate delivery runs while this search is under way
            review_step(review_id=review.pk)
        return real(*args, **kwargs)

    with sends() as sent, mock.patch.object(services, "assess_record_step", racing):
        assert review_step(review_id=review.pk) is False  # the duplicate stored it first
    assert ReviewDecision.objects.filter(review=review).count() == 1
    assert sent.call_count == 1  # one chain goes on, not two


def test_a_review_is_reproducible(users: list[User], sends: Sends) -> None:
    match = _match(users)
    first = list(
        _reviewed(sends, match, users[0]).decisions.values_list("seq", "played", "best", "p_played", "label")
    )
    Review.objects.all().delete()
    again = list(
        _reviewed(sends, match, users[0]).decisions.values_list("seq", "played", "best", "p_played", "label")
    )
    assert first == again


def test_asking_again_returns_the_stored_review_and_costs_nothing(users: list[User], sends: Sends) -> None:
    match = _match(users)
    review = _reviewed(sends, match, users[0])
    with sends() as sent:
        for asker in (users[0], users[1], users[2]):
            assert review_request(match_id=match.pk, seat=0, user=asker).pk == review.pk
    assert sent.call_count == 0 and Review.objects.count() == 1


def _broken_search(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("a bug in the search")


def test_a_step_whose_search_raises_marks_the_review_failed_and_the_page_stops_waiting(
    users: list[User], client: Client, sends: Sends, caplog: pytest.LogCaptureFixture
) -> None:
    match = _match(users)
    client.force_login(users[0])
    with sends():
        review = review_request(match_id=match.pk, seat=0, user=users[0])
    with sends() as sent, mock.patch.object(services, "assess_record_step", _broken_search):
        assert review_step(review_id=review.pk) is False
    review.refresh_from_db()
    assert review.status == Review.Status.FAILED and review.done == 0
    assert sent.call_count == 0  # the chain stops: no step sent to fail again
    assert f"review {review.pk} failed" in caplog.text
    with sends() as sent:
        assert review_step(review_id=review.pk) is False  # a late duplicate does nothing
    assert sent.call_count == 0
    polled = client.get(
        reverse("match_reviews", args=[match.pk]) + "?was=pending", headers={"HX-Request": "true"}
    )
    body = polled.content.decode()
    assert polled["HX-Refresh"] == "true"  # nothing pending: the page stops polling
    assert 'data-status="failed"' in body and "could not be made" in body
    assert "every 1s" not in body and "<progress" not in body
    with translation.override("ru"):
        russian = client.get(reverse("match_reviews", args=[match.pk]), headers={"Accept-Language": "ru"})
    assert "Этот разбор не удалось сделать" in russian.content.decode()


def test_a_failed_review_is_tried_again_when_asked_after_a_while(
    users: list[User], client: Client, sends: Sends
) -> None:
    match = _match(users)
    client.force_login(users[0])
    with sends():
        review = review_request(match_id=match.pk, seat=0, user=users[0])
    with sends(), mock.patch.object(services, "assess_record_step", _broken_search):
        review_step(review_id=review.pk)
    ask = reverse("match_review_ask", args=[match.pk, 0])
    with sends() as sent:  # at once: the seeded search would only fail again
        assert review_request(match_id=match.pk, seat=0, user=users[0]).status == Review.Status.FAILED
    assert sent.call_count == 0
    assert ask in client.get(reverse("match_reviews", args=[match.pk])).content.decode()
    Review.objects.filter(pk=review.pk).update(updated=review.updated - services.STALLED * 2)
    with sends() as sent:
        response = client.post(ask, headers={"HX-Request": "true"})
    assert sent.call_count == 1 and "<progress" in response.content.decode()
    review.refresh_from_db()
    assert review.status == Review.Status.PENDING
    _drain(sends, review)  # the search works again (a fix was deployed): the review completes
    review.refresh_from_db()
    assert review.status == Review.Status.DONE and review.done == review.total > 0


def test_a_stranger_sees_a_failed_review_of_a_public_game_without_a_button_to_retry(
    users: list[User], client: Client, sends: Sends
) -> None:
    match = _match(users)
    with sends():
        review = review_request(match_id=match.pk, seat=0, user=users[0])
    with sends(), mock.patch.object(services, "assess_record_step", _broken_search):
        review_step(review_id=review.pk)
    body = client.get(reverse("match_reviews", args=[match.pk])).content.decode()
    assert "could not be made" in body
    assert reverse("match_review_ask", args=[match.pk, 0]) not in body


def test_new_reviews_are_rate_limited_per_user(users: list[User], sends: Sends) -> None:
    matches = [_match(users, seed=f"rl{n}") for n in range(4)]
    with sends():
        for match in matches[:3]:
            review_request(match_id=match.pk, seat=0, user=users[0])
        with pytest.raises(ReviewRefused, match="many reviews"):
            review_request(match_id=matches[3].pk, seat=0, user=users[0])
        assert review_request(match_id=matches[0].pk, seat=0, user=users[0])  # stored: still free
        review_request(match_id=matches[3].pk, seat=0, user=users[1])  # another user's own limit
    assert Review.objects.filter(requested_by=users[0]).count() == 3


def test_who_may_ask(users: list[User], sends: Sends) -> None:
    private = _match(users, seed="priv", private=True)
    public = _match(users, seed="pub")
    with sends():
        with pytest.raises(ReviewRefused):  # a stranger, at a private table
            review_request(match_id=private.pk, seat=0, user=users[2])
        with pytest.raises(ReviewRefused):  # a player, for the other seat of a private match
            review_request(match_id=private.pk, seat=1, user=users[0])
        assert review_request(match_id=private.pk, seat=1, user=users[1]).seat == 1
        assert review_request(match_id=public.pk, seat=1, user=users[2]).seat == 1  # public: anyone
        from django.contrib.auth.models import AnonymousUser

        with pytest.raises(ReviewRefused):
            review_request(match_id=public.pk, seat=0, user=AnonymousUser())


def test_a_running_match_or_a_missing_seat_is_refused(users: list[User], sends: Sends) -> None:
    match = _match(users)
    with sends():
        with pytest.raises(ReviewRefused, match="seat"):
            review_request(match_id=match.pk, seat=5, user=users[0])
        Match.objects.filter(pk=match.pk).update(status=Match.Status.ACTIVE)
        with pytest.raises(ReviewRefused, match="finished"):
            review_request(match_id=match.pk, seat=0, user=users[0])
    assert not Review.objects.exists()


def test_bad_requests_get_a_message_never_a_500(users: list[User], client: Client, sends: Sends) -> None:
    match = _match(users)
    client.force_login(users[0])
    url = reverse("match_review_ask", args=[match.pk, 9])
    with sends() as sent:
        response = client.post(url, headers={"HX-Request": "true"})
        assert response.status_code == 200 and "no such seat" in response.content.decode()
        assert client.get(reverse("match_review_ask", args=[match.pk, 0])).status_code == 405
        assert client.post(reverse("match_review_ask", args=[10**9, 0])).status_code == 404
        assert client.get(reverse("match_reviews", args=[10**9])).status_code == 404
        response = client.post(reverse("match_review_ask", args=[match.pk, 9]))
        assert response.status_code == 302  # no script: back to the page, with the message
        assert sent.call_count == 0
    assert not Review.objects.exists()


def test_a_private_match_and_its_reviews_stay_hidden_from_strangers(
    users: list[User], client: Client, sends: Sends
) -> None:
    match = _match(users, seed="hid", private=True)
    _reviewed(sends, match, users[0])
    client.force_login(users[2])
    assert client.get(reverse("match_reviews", args=[match.pk])).status_code == 404
    assert client.post(reverse("match_review_ask", args=[match.pk, 0])).status_code == 404
    assert client.get(reverse("match_export", args=[match.pk])).status_code == 404
    client.force_login(users[1])
    assert client.get(reverse("match_reviews", args=[match.pk])).status_code == 200


def test_asking_on_the_page_shows_progress_and_polling_reloads_when_done(
    users: list[User], client: Client, sends: Sends
) -> None:
    match = _match(users)
    client.force_login(users[0])
    page = client.get(reverse("match_record", args=[match.pk])).content.decode()
    assert "Review my play" in page
    with sends() as sent:
        response = client.post(
            reverse("match_review_ask", args=[match.pk, 0]), headers={"HX-Request": "true"}
        )
    assert sent.call_count == 1
    body = response.content.decode()
    assert "<progress" in body and 'hx-trigger="every 1s"' in body
    _drain(sends, Review.objects.get())
    polled = client.get(
        reverse("match_reviews", args=[match.pk]) + "?was=pending", headers={"HX-Request": "true"}
    )
    assert polled["HX-Refresh"] == "true" and "<svg" in polled.content.decode()


def test_the_page_labels_the_steps_and_draws_the_chart_unlocalised(
    users: list[User], client: Client, sends: Sends
) -> None:
    match = _match(users)
    review = _reviewed(sends, match, users[0])
    decision = review.decisions.order_by("seq").first()
    assert decision is not None
    with translation.override("ru"):
        client.cookies["django_language"] = "ru"
        page = client.get(reverse("match_record", args=[match.pk]), {"step": decision.seq}).content.decode()
    assert f'data-label="{decision.label}"' in page
    dots = re.findall(r'review-chart__dot[^"]*" cx="([^"]+)" cy="([^"]+)"', page)
    assert len(dots) == review.decisions.count()
    assert all(0 <= float(x) <= 600 and 0 <= float(y) <= 160 for x, y in dots)  # "12.5", never "12,5"
    line = re.search(r'review-chart__line" points="([^"]*)"', page)
    assert line is not None and re.fullmatch(r"[0-9., ]+", line[1])
    step = client.get(
        reverse("match_record", args=[match.pk]), {"step": decision.seq}, headers={"HX-Request": "true"}
    ).content.decode()
    assert f'data-label="{decision.label}"' in step


def test_the_history_list_shows_the_accuracy_of_reviewed_games(
    users: list[User], client: Client, sends: Sends
) -> None:
    reviewed = _match(users, seed="acc1")
    _match(users, seed="acc2")
    review = _reviewed(sends, reviewed, users[0])
    labels = list(review.decisions.values_list("label", flat=True))
    expected = round(100 * labels.count("good") / len(labels))
    client.force_login(users[0])
    page = client.get(reverse("history")).content.decode()
    assert page.count("data-accuracy=") == 1 and f'data-accuracy="{expected}"' in page
    client.force_login(users[1])  # the other player's own seat was not reviewed
    assert "data-accuracy=" not in client.get(reverse("history")).content.decode()


def test_the_json_export_carries_the_finished_reviews(
    users: list[User], client: Client, sends: Sends
) -> None:
    match = _match(users)
    review = _reviewed(sends, match, users[0])
    with sends():
        review_request(match_id=match.pk, seat=1, user=users[1])  # under way: not exported
    client.force_login(users[0])
    data = json.loads(client.get(reverse("match_export", args=[match.pk])).content)
    assert [r["seat"] for r in data["reviews"]] == [0]
    exported = data["reviews"][0]
    assert exported["thresholds"] == {"inaccuracy": 0.08, "mistake": 0.15, "blunder": 0.25}
    assert len(exported["decisions"]) == review.total
    first = review.decisions.order_by("seq").first()
    assert first is not None
    assert exported["decisions"][0] == {
        "seq": first.seq,
        "played": first.played,
        "best": first.best,
        "p_played": first.p_played,
        "p_best": first.p_best,
        "samples_played": first.samples_played,
        "samples_best": first.samples_best,
        "label": first.label,
    }


def test_reviews_have_a_queue_of_their_own() -> None:
    """Bot turns and deadlines are never queued behind a review's search."""
    assert celery_app.amqp.router.route({}, REVIEW_STEP_TASK)["queue"].name == "reviews"
    assert celery_app.amqp.router.route({}, "games.bot_turn")["queue"].name == "bots"
    assert celery_app.amqp.router.route({}, "games.clock")["queue"].name == "celery"


def test_beat_resumes_a_review_whose_worker_died_mid_chain_once_and_leaves_live_and_failed_ones(
    users: list[User], sends: Sends
) -> None:
    stalled_match, live_match, failed_match = (_match(users, seed=f"rv-sweep-{i}") for i in range(3))
    with sends():
        stalled = review_request(match_id=stalled_match.pk, seat=0, user=users[0])
        live = review_request(match_id=live_match.pk, seat=0, user=users[0])
        failed = review_request(match_id=failed_match.pk, seat=0, user=users[1])
    with sends():
        review_step(review_id=stalled.pk)  # one step stored; the step it sent died with its worker
    with sends(), mock.patch.object(services, "assess_record_step", _broken_search):
        review_step(review_id=failed.pk)
    long_ago = stalled.updated - services.STALLED * 2
    Review.objects.filter(pk__in=[stalled.pk, failed.pk]).update(updated=long_ago)
    with sends() as sent:
        assert reviews_sweep() == 1  # the Celery task, as beat sends it
    assert [c.kwargs["args"] for c in sent.call_args_list] == [(stalled.pk,)]
    with sends() as sent:
        assert reviews_sweep() == 0  # resumed just now: not twice
    assert sent.call_count == 0
    statuses = dict(Review.objects.values_list("pk", "status"))
    assert statuses[failed.pk] == Review.Status.FAILED and statuses[live.pk] == Review.Status.PENDING
    assert _drain(sends, Review.objects.get(pk=stalled.pk)) > 0
    stalled.refresh_from_db()
    assert stalled.status == Review.Status.DONE and stalled.done == stalled.total > 1


def test_beat_runs_the_review_sweep_every_minute() -> None:
    schedule = {entry["task"]: entry["schedule"] for entry in celery_app.conf.beat_schedule.values()}
    assert schedule["history.reviews_sweep"] == 60.0
    assert "history.reviews_sweep" in celery_app.tasks


def test_the_page_shows_the_chance_for_players_of_the_seats_ratings_and_says_so(
    users: list[User], client: Client, sends: Sends
) -> None:
    match = _match(users)
    match.players.filter(seat=0).update(rating=1610.0)
    match.players.filter(seat=1).update(rating=1755.0)
    review = _reviewed(sends, match, users[0])
    page = client.get(reverse("match_record", args=[match.pk])).content.decode()
    titles = re.findall(r"<title>(\d+): (\d+)%</title>", page)
    shown = {int(seq): int(percent) for seq, percent in titles}
    decisions = list(review.decisions.order_by("seq"))
    assert shown == {d.seq: round(100 * CHANCE_MAP(d.p_played, 1610.0 - 1755.0)) for d in decisions}
    assert 'data-chance="rated"' in page and "for players of the ratings these two had at the deal" in page
    with translation.override("ru"):
        client.cookies["django_language"] = "ru"
        russian = client.get(reverse("match_record", args=[match.pk])).content.decode()
    assert "для игроков с теми рейтингами" in russian


def test_without_both_ratings_the_page_shows_the_search_s_own_chance_and_says_so(
    users: list[User], client: Client, sends: Sends
) -> None:
    match = _match(users)
    match.players.filter(seat=0).update(rating=1610.0)  # the other seat's rating is unknown
    review = _reviewed(sends, match, users[0])
    page = client.get(reverse("match_record", args=[match.pk])).content.decode()
    shown = {int(seq): int(p) for seq, p in re.findall(r"<title>(\d+): (\d+)%</title>", page)}
    assert shown == {d.seq: round(100 * d.p_played) for d in review.decisions.all()}
    assert 'data-chance="raw"' in page and "if both players played on like its playouts" in page
