"""The turn timer: a deadline kept in the database and nothing else, and beat's clock that plays
every deadline that ran out (``play.services.turn``).

A move only sets the deadline, so it sends no task; the clock plays a deadline within half a
second of its time, and only at the version it read, so a tick that comes late or twice, or
after a move, does nothing. The deadline still falls exactly ``turn_seconds`` after the last
change (``throw_in_seconds`` in a throw-in window).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from durak_site.celery import app as celery_app
from games.models import Match, Move
from play import services, tasks

from .services_support import (
    make_user,
    play_default,
    player,
    start_match,
    state_of,
    to_the_throw_in_window,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "timer-seed")


@contextmanager
def every_send() -> Iterator[mock.Mock]:
    """Catch every task sent (the services send theirs by name, after commit)."""
    with mock.patch.object(celery_app, "send_task") as send_task:
        yield send_task


def test_the_deal_sets_the_deadline_and_sends_no_timer(django_capture_on_commit_callbacks: Any) -> None:
    now = timezone.now()
    with (
        mock.patch("django.utils.timezone.now", return_value=now),  # one instant
        every_send() as sent,
        django_capture_on_commit_callbacks(execute=True),
    ):
        match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    match.refresh_from_db()
    assert match.deadline_at == now + timedelta(seconds=20)
    assert sent.call_count == 0, sent.call_args_list


def test_moves_push_the_deadline_and_send_nothing(django_capture_on_commit_callbacks: Any) -> None:
    # a throw-in window as long as the turn timer: every move sets the deadline 20 s ahead
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20, throw_in_seconds=20)
    first_deadline = match.deadline_at
    with every_send() as sent, django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            play_default(match)
    assert sent.call_count == 0, sent.call_args_list
    assert match.deadline_at is not None and first_deadline is not None
    assert match.deadline_at > first_deadline


def test_a_throw_in_window_brings_the_deadline_to_the_windows_end(
    django_capture_on_commit_callbacks: Any,
) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20, throw_in_seconds=3)
    with every_send() as sent, django_capture_on_commit_callbacks(execute=True):
        to_the_throw_in_window(match)
    match.refresh_from_db()
    assert match.deadline_at is not None
    assert match.deadline_at - timezone.now() <= timedelta(seconds=3)
    assert sent.call_count == 0, sent.call_args_list


def test_beat_runs_the_clock_twice_a_second() -> None:
    assert celery_app.conf.beat_schedule["games-clock"] == {
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


def test_the_clock_plays_a_turn_deadline_that_ran_out_and_none_ahead() -> None:
    late = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    on_time = start_match(humans=[make_user("c"), make_user("d")], turn_seconds=20)
    Match.objects.filter(pk=late.pk).update(deadline_at=timezone.now() - timedelta(milliseconds=1))

    assert tasks.clock.apply().get() == 1

    late.refresh_from_db()
    on_time.refresh_from_db()
    assert late.version == 1 and late.moves.get().by == Move.By.TIMEOUT
    assert late.deadline_at is not None and late.deadline_at > timezone.now()
    assert on_time.version == 0
    assert tasks.clock.apply().get() == 0, "the next deadline lies ahead"


def test_a_timeout_read_before_a_move_does_nothing_after_it() -> None:
    """Two ticks at once, or a move that commits between the clock's read and its lock: the
    timeout is played at the version the clock read, or not at all."""
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=20)
    read = match.version
    play_default(match)
    assert services.match_timeout(match_id=match.pk, version=read) is False
    match.refresh_from_db()
    assert not match.moves.filter(by=Move.By.TIMEOUT).exists()


def test_the_clock_goes_on_past_a_match_whose_timeout_fails(caplog: pytest.LogCaptureFixture) -> None:
    broken = start_match(humans=[make_user("a"), make_user("b")])
    late = start_match(humans=[make_user("c"), make_user("d")])
    past = timezone.now() - timedelta(seconds=30)
    Match.objects.filter(pk__in=[broken.pk, late.pk]).update(deadline_at=past)
    Match.objects.filter(pk=broken.pk).update(snapshot={"not": "a state"})

    assert tasks.clock.apply().get() == 1

    late.refresh_from_db()
    assert late.version == 1
    assert f"the overdue timeout of match {broken.pk} failed" in caplog.text


def test_a_finished_match_has_no_deadline() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    services.match_resign(match_id=match.pk, user=player(match, 0).user)
    match.refresh_from_db()
    assert not match.is_active and match.deadline_at is None


def test_beat_announces_every_match_in_play_each_minute() -> None:
    assert celery_app.conf.beat_schedule["games-matches-announce"] == {
        "task": "games.matches_announce",
        "schedule": 60.0,
    }
    running = start_match(humans=[make_user("a"), make_user("b")])
    play_default(running)
    over = start_match(humans=[make_user("c"), make_user("d")])
    services.match_resign(match_id=over.pk, user=player(over, 0).user)
    layer = mock.Mock()
    layer.group_send = mock.AsyncMock()
    with mock.patch("play.broadcast.get_channel_layer", return_value=layer):
        assert tasks.matches_announce.apply().get() == 1
    sent = [call.args for call in layer.group_send.await_args_list]
    assert sent == [
        (f"match-{running.pk}", {"type": "match.changed", "match": running.pk, "version": running.version})
    ]
