"""Time, leavers, endings: every waiting state has a deadline, and a seat that keeps timing out
or resigns is played by the autopilot and counts as the fool (issue 4, "Time, leavers, endings").
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.engine import Rules
from games.models import Match, Move
from play import services, tasks

from .services_support import (
    make_user,
    play_default,
    play_out,
    player,
    start_match,
    state_of,
    task_sends,
    to_the_throw_in_window,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "timeouts-seed")


def test_a_deadline_plays_the_engines_default_for_the_waiting_seat() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    state = state_of(match)
    expected = {seat: str(state.default_action(seat)) for seat in state.awaiting()}

    assert services.match_timeout(match_id=match.pk, version=0) is True

    moves = list(match.moves.order_by("seq"))
    assert [(m.seat, m.action, m.by) for m in moves] == [
        (seat, action, Move.By.TIMEOUT) for seat, action in sorted(expected.items())
    ]
    match.refresh_from_db()
    assert match.version == 1 and match.deadline_at is not None
    lead_seat = moves[0].seat
    assert player(match, lead_seat).timeouts == 1


def test_a_stale_deadline_does_nothing() -> None:
    a, b = make_user("a"), make_user("b")
    match = start_match(humans=[a, b])
    seat = min(state_of(match).awaiting())
    services.action_apply(
        match_id=match.pk,
        user=player(match, seat).user,
        action_text=str(state_of(match).default_action(seat)),
        expected_version=0,
    )
    match.refresh_from_db()
    snapshot = match.snapshot

    assert services.match_timeout(match_id=match.pk, version=0) is False

    match.refresh_from_db()
    assert match.version == 1 and match.snapshot == snapshot and match.moves.count() == 1


def test_a_deadline_after_the_end_does_nothing() -> None:
    match = play_out(start_match(humans=[make_user("a"), make_user("b")]))
    assert services.match_timeout(match_id=match.pk, version=match.version) is False


def test_three_consecutive_timeouts_put_the_seat_on_autopilot_and_it_is_the_fool() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], rules=Rules(players=2))
    while True:
        match.refresh_from_db()
        if not match.is_active:
            break
        forfeited = [p for p in match.players.all() if p.autopilot]
        assert not forfeited
        assert services.match_timeout(match_id=match.pk, version=match.version)
        forfeited = [p for p in match.players.all() if p.autopilot]
        if forfeited:
            break
    match.refresh_from_db()
    (sleeper,) = forfeited
    assert sleeper.timeouts == 3 and sleeper.forfeit_order == 1 and not sleeper.resigned
    # Two players: with one on autopilot the game is decided at once.
    assert match.status == Match.Status.FINISHED and match.result is not None
    assert match.result["fool"] == sleeper.seat and match.result["reason"] == "forfeit"
    assert match.result["places"][-1] == [sleeper.seat]
    assert player(match, sleeper.seat).fool


def test_an_own_move_resets_the_consecutive_timeouts() -> None:
    a, b = make_user("a"), make_user("b")
    match = start_match(humans=[a, b])
    services.match_timeout(match_id=match.pk, version=0)
    counted = [p for p in match.players.all() if p.timeouts]
    assert counted
    # Play on by hand until every counted seat has made a move of its own.
    for _ in range(50):
        play_default(match)
        if all(player(match, p.seat).timeouts == 0 for p in counted):
            break
    assert all(player(match, p.seat).timeouts == 0 for p in counted)


def test_resign_puts_the_seat_on_autopilot_the_others_finish_and_it_counts_as_the_fool() -> None:
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    match = start_match(humans=[a, b, c], rules=Rules(players=3))

    services.match_resign(match_id=match.pk, user=b)

    match.refresh_from_db()
    resigned = player(match, 1)
    assert resigned.autopilot and resigned.resigned and resigned.forfeit_order == 1
    assert match.is_active and match.version == 1  # two players are left to finish
    with pytest.raises(services.NotYourSeat):
        services.action_apply(match_id=match.pk, user=b, action_text="take", expected_version=1)
    with pytest.raises(services.GameError):
        services.match_resign(match_id=match.pk, user=b)

    match = play_out(match)
    assert match.result is not None
    assert match.result["fool"] == 1 and match.result["forfeits"] == [1]
    assert match.result["places"][-1] == [1]
    assert sorted(s for group in match.result["places"] for s in group) == [0, 1, 2]
    assert player(match, 1).fool and not player(match, 0).fool and not player(match, 2).fool
    assert set(match.moves.filter(seat=1).values_list("by", flat=True)) == {Move.By.AUTOPILOT}


def test_resign_in_a_team_game_loses_for_the_team_at_once() -> None:
    users = [make_user(n) for n in "abcd"]
    match = start_match(humans=users, rules=Rules(players=4, teams=True))
    services.match_resign(match_id=match.pk, user=users[3])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result is not None
    assert match.result["losing_team"] == [1, 3] and match.result["fool"] == 3
    assert [p.fool for p in match.players.order_by("seat")] == [False, True, False, True]


def test_a_deadline_plays_a_waiting_bot_too() -> None:
    """A lost bot task cannot hang the match: the deadline plays the bot's move."""
    match = start_match(humans=[make_user("a")], bot_level="easy")
    for _ in range(10):
        match.refresh_from_db()
        state = state_of(match)
        if any(player(match, s).user.is_bot for s in state.awaiting()):
            break
        services.match_timeout(match_id=match.pk, version=match.version)
    version = match.version
    assert services.match_timeout(match_id=match.pk, version=version)
    assert match.moves.filter(by=Move.By.BOT).exists()


def test_rearm_matches_sends_the_bot_turns_of_each_active_match(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """After a restart the broker's countdowns are gone: the bot turns are sent again (the
    deadlines are in the database, where beat's clock finds them; one that is missing is set)."""
    match = start_match(humans=[make_user("a")], bot_level="easy")
    if not any(player(match, s).user.is_bot for s in state_of(match).awaiting()):
        play_default(match)  # the human leads; then the bot is awaited
    lost = start_match(humans=[make_user("b"), make_user("c")], turn_seconds=20)
    finished = play_out(start_match(humans=[make_user("d"), make_user("e")]))
    deadline = match.deadline_at
    Match.objects.filter(pk=lost.pk).update(deadline_at=None)
    out = StringIO()
    now = timezone.now()
    with (
        mock.patch("django.utils.timezone.now", return_value=now),
        task_sends("games.bot_turn") as bot_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        call_command("rearm_matches", stdout=out)
    assert "2 active" in out.getvalue()
    bots_awaited = [s for s in state_of(match).awaiting() if player(match, s).user.is_bot]
    assert bots_awaited
    assert [c.kwargs["args"] for c in bot_task.call_args_list] == [
        (match.pk, match.version, seat) for seat in bots_awaited
    ]
    assert finished.pk not in {c.kwargs["args"][0] for c in bot_task.call_args_list}
    match.refresh_from_db()
    lost.refresh_from_db()
    assert match.deadline_at == deadline, "a deadline in the database stays as it is"
    assert lost.deadline_at == now + timedelta(seconds=20)


def test_rearm_all_goes_on_past_a_match_whose_rearm_fails(caplog: pytest.LogCaptureFixture) -> None:
    broken = start_match(humans=[make_user("a"), make_user("b")])
    start_match(humans=[make_user("c"), make_user("d")])
    Match.objects.filter(pk=broken.pk).update(snapshot={"not": "a state"})
    assert tasks.rearm_all.apply().get() == 1
    assert f"re-arming match {broken.pk} failed" in caplog.text


def test_a_worker_that_connects_to_the_broker_sends_rearm_all(caplog: pytest.LogCaptureFixture) -> None:
    from durak_site.celery import RearmOnConnect, app

    assert RearmOnConnect in app.steps["consumer"]
    consumer = mock.Mock()
    RearmOnConnect(consumer).start(consumer)
    consumer.app.send_task.assert_called_once_with("games.rearm_all")
    consumer.app.send_task.side_effect = ConnectionError("broker gone again")
    RearmOnConnect(consumer).start(consumer)  # logged, not raised: the next reconnect sends it
    assert "could not send games.rearm_all" in caplog.text


def test_the_throw_in_window_is_the_tables_short_public_timer() -> None:
    match = start_match(
        humans=[make_user("a"), make_user("b"), make_user("c")],
        rules=Rules(players=3),
        turn_seconds=30,
        throw_in_seconds=3,
    )
    before = timezone.now()
    to_the_throw_in_window(match)
    awaited = state_of(match).awaiting()
    # both throwers are awaited, whatever they hold, and the bout waits 3 seconds, not 30
    assert sorted(awaited) == [s for s in range(3) if s != state_of(match).defender]
    assert match.deadline_at is not None
    assert match.deadline_at - before <= timedelta(seconds=4)


def test_the_window_closing_passes_every_awaited_thrower_and_counts_no_timeout() -> None:
    match = start_match(humans=[make_user("a"), make_user("b"), make_user("c")], rules=Rules(players=3))
    to_the_throw_in_window(match)
    awaited = sorted(state_of(match).awaiting())
    seq = match.last_seq

    assert services.match_timeout(match_id=match.pk, version=match.version) is True

    passes = list(match.moves.filter(seq__gt=seq).order_by("seq"))
    assert [(m.seat, m.action, m.by) for m in passes] == [(s, "pass", Move.By.TIMEOUT) for s in awaited]
    assert all(player(match, s).timeouts == 0 for s in awaited)
    assert set(state_of(match).awaiting().values()) == {"lead"}  # the bout is over
