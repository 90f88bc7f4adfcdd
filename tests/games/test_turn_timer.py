"""The turn timer: one queued ``deadline`` task per match, not one per move, and beat's clock for
the throw-in windows.

A move only pushes the deadline later, so it leaves the queued timer alone; a timer that comes
due before the deadline re-arms itself for it, and only the timer the match knows (by its due
time) ever acts. The deadline still falls exactly ``turn_seconds`` after the last change.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from games import tasks
from games.live import services
from games.live.services import turn
from games.models import Match, Move

from .services_support import (
    make_user,
    play_default,
    player,
    start_match,
    state_of,
    task_sends,
    to_the_throw_in_window,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("games.live.services.tables.new_seed", lambda: "timer-seed")


def _queued(deadline_task: mock.Mock) -> list[tuple[Any, ...]]:
    return [call.kwargs["args"] for call in deadline_task.call_args_list]


def test_the_deal_queues_one_timer_due_at_the_deadline(django_capture_on_commit_callbacks: Any) -> None:
    with (
        mock.patch("django.utils.timezone.now", return_value=timezone.now()),  # one instant
        task_sends("games.deadline") as deadline_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    match.refresh_from_db()
    assert match.deadline_at is not None and match.timer_at == match.deadline_at
    assert _queued(deadline_task) == [(match.pk, match.deadline_at.isoformat())]
    assert 19 <= deadline_task.call_args.kwargs["countdown"] <= 20


def test_moves_push_the_deadline_but_queue_no_timer(django_capture_on_commit_callbacks: Any) -> None:
    # a throw-in window as long as the turn timer: no move brings the deadline earlier
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20, throw_in_seconds=20)
    timer_at, first_deadline = match.timer_at, match.deadline_at
    with (
        task_sends("games.deadline") as deadline_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        for _ in range(3):
            play_default(match)
    assert deadline_task.call_count == 0
    assert match.timer_at == timer_at
    assert match.deadline_at is not None and first_deadline is not None
    assert match.deadline_at > first_deadline


def test_an_early_timer_rearms_itself_for_the_deadline(django_capture_on_commit_callbacks: Any) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    play_default(match)  # the deadline moved past the queued timer
    assert match.timer_at is not None
    due = match.timer_at.isoformat()
    with (
        task_sends("games.deadline") as deadline_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert tasks.deadline.apply(args=(match.pk, due)).get() is False
    version = match.version
    match.refresh_from_db()
    assert match.version == version, "nothing was played before the deadline"
    assert match.deadline_at is not None and match.timer_at == match.deadline_at
    assert _queued(deadline_task) == [(match.pk, match.deadline_at.isoformat())]


def test_a_throw_in_window_queues_no_timer_of_its_own(django_capture_on_commit_callbacks: Any) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    timer_at = match.timer_at
    with (
        task_sends("games.deadline") as deadline_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        to_the_throw_in_window(match)
    match.refresh_from_db()
    assert match.deadline_at is not None and timer_at is not None
    assert match.deadline_at < timer_at, "the window brought the deadline earlier"
    assert match.timer_at == timer_at, "the match's timer stays queued for the turn's deadline"
    assert deadline_task.call_count == 0


def test_beat_runs_the_clock_twice_a_second() -> None:
    from durak_site.celery import app

    assert app.conf.beat_schedule["games-clock"] == {
        "task": "games.clock",
        "schedule": 0.5,
        "options": {"expires": 1.0},
    }


def test_the_clock_closes_a_window_that_ran_out() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    to_the_throw_in_window(match)
    match.refresh_from_db()
    awaited, seq = sorted(state_of(match).awaiting()), match.last_seq
    assert tasks.clock.apply().get() == 0, "the window is still open"
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(milliseconds=1))
    assert tasks.clock.apply().get() == 1
    closed = list(match.moves.filter(seq__gt=seq).order_by("seq"))
    assert [(m.seat, m.action, m.by) for m in closed] == [(s, "pass", Move.By.TIMEOUT) for s in awaited]


def test_a_timer_due_in_a_window_arms_itself_for_the_windows_deadline(
    django_capture_on_commit_callbacks: Any,
) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    to_the_throw_in_window(match)
    match.refresh_from_db()
    assert match.timer_at is not None and match.deadline_at is not None
    with (
        task_sends("games.deadline") as deadline_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert services.match_deadline(match_id=match.pk, due=match.timer_at.isoformat()) is False
    match.refresh_from_db()
    assert match.timer_at == match.deadline_at, "no timer is left queued: the window's is armed"
    assert _queued(deadline_task) == [(match.pk, match.deadline_at.isoformat())]


def test_a_due_timer_plays_the_timeouts_and_queues_the_next(django_capture_on_commit_callbacks: Any) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline_at=past, timer_at=past)
    with (
        task_sends("games.deadline") as deadline_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert tasks.deadline.apply(args=(match.pk, past.isoformat())).get() is True
    match.refresh_from_db()
    assert match.version == 1 and match.moves.get().by == Move.By.TIMEOUT
    assert match.deadline_at is not None
    assert match.timer_at == match.deadline_at > timezone.now()
    assert _queued(deadline_task) == [(match.pk, match.deadline_at.isoformat())]


def test_a_stale_or_repeated_timer_does_nothing() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline_at=past, timer_at=past)
    other = (past - timedelta(seconds=5)).isoformat()
    assert tasks.deadline.apply(args=(match.pk, other)).get() is False
    assert tasks.deadline.apply(args=(match.pk, past.isoformat())).get() is True
    assert tasks.deadline.apply(args=(match.pk, past.isoformat())).get() is False  # delivered twice
    match.refresh_from_db()
    assert match.version == 1


def test_a_lost_timer_is_queued_again_by_the_next_move(django_capture_on_commit_callbacks: Any) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    lost = timezone.now() - turn.TIMER_LOST_AFTER - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(timer_at=lost)
    match.refresh_from_db()
    with (
        task_sends("games.deadline") as deadline_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        play_default(match)
    assert match.deadline_at is not None
    assert _queued(deadline_task) == [(match.pk, match.deadline_at.isoformat())]
    assert match.timer_at == match.deadline_at


def test_a_finished_match_keeps_no_timer() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    services.match_resign(match_id=match.pk, user=player(match, 0).user)
    match.refresh_from_db()
    assert not match.is_active and match.timer_at is None and match.deadline_at is None


def test_the_sweep_announces_every_match_in_play() -> None:
    running = start_match(humans=[make_user("a"), make_user("b")])
    play_default(running)
    over = start_match(humans=[make_user("c"), make_user("d")])
    services.match_resign(match_id=over.pk, user=player(over, 0).user)
    layer = mock.Mock()
    layer.group_send = mock.AsyncMock()
    with mock.patch("games.live.broadcast.get_channel_layer", return_value=layer):
        tasks.sweep_overdue.apply().get()
    sent = [call.args for call in layer.group_send.await_args_list]
    assert sent == [
        (f"match-{running.pk}", {"type": "match.changed", "match": running.pk, "version": running.version})
    ]
