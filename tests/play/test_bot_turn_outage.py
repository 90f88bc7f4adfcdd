"""A bot turn during a database outage (issue 35 §4): logged as an outage, never as the bot's
failure or timeout, tried again, and played with the bot's own move, never the engine's default."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from games.models import Match, Move
from play import services, tasks
from play.services import turn

from .services_support import bot_to_move, player, state_of

pytestmark = pytest.mark.django_db


def _outage(error: type[Exception], failures: int) -> Any:
    """The public history read (the bot's one query during its search) fails ``failures`` times."""
    read = turn._public_history
    calls = {"n": 0}

    def failing(match: Match) -> Any:
        calls["n"] += 1
        if calls["n"] <= failures:
            raise error("server closed the connection unexpectedly")
        return read(match)

    return failing


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_bot_turn_in_a_database_outage_raises_the_outage_instead_of_playing_the_default(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, error: type[Exception]
) -> None:
    match, seat = bot_to_move()
    version, moves = match.version, match.moves.count()
    monkeypatch.setattr(turn, "_public_history", _outage(error, failures=1))
    with pytest.raises(error):
        services.bot_turn(match_id=match.pk, version=version, seat=seat)
    match.refresh_from_db()
    assert (match.version, match.moves.count()) == (version, moves)  # nothing played
    assert "failed in match" not in caplog.text  # not the bot's failure


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_the_bot_turn_task_logs_an_outage_and_is_tried_again_until_the_bot_plays_its_own_move(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, error: type[Exception]
) -> None:
    match, seat = bot_to_move()
    version = match.version
    monkeypatch.setattr(turn, "_public_history", _outage(error, failures=2))
    assert tasks.bot_turn.apply(args=(match.pk, version, seat)).get() is True
    warnings = [r for r in caplog.records if "database unavailable during the bot turn" in r.getMessage()]
    assert len(warnings) == 2 and all("trying again" in r.getMessage() for r in warnings)
    assert "failed in match" not in caplog.text
    last = match.moves.order_by("-seq").first()
    assert last is not None and (last.seat, last.by) == (seat, Move.By.BOT)


def test_a_bot_turn_whose_every_try_failed_says_so_and_the_clock_plays_the_bots_move_at_the_deadline(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match, seat = bot_to_move()
    version = match.version
    human = player(match, 1 - seat)
    with monkeypatch.context() as patched:
        patched.setattr(turn, "_public_history", _outage(OperationalError, failures=10**6))
        result = tasks.bot_turn.apply(args=(match.pk, version, seat))
    assert isinstance(result.result, OperationalError)
    given_up = [r for r in caplog.records if "left to beat's clock" in r.getMessage()]
    assert len(given_up) == 1 and f"match {match.pk}" in given_up[0].getMessage()
    assert f"after {tasks.BOT_TURN_RETRIES + 1} tries" in given_up[0].getMessage()
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    caplog.clear()
    assert services.matches_timeout_overdue() == 1
    assert "the clock plays it" in caplog.text and f"seat {seat}" in caplog.text
    last = match.moves.order_by("-seq").first()
    assert last is not None and (last.seat, last.by) == (seat, Move.By.BOT)  # not a timeout
    human.refresh_from_db()
    assert human.timeouts == 0 and seat not in state_of(match).awaiting()


def test_the_clock_in_a_database_outage_logs_it_and_leaves_the_deadlines_to_the_next_tick(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match, _seat = bot_to_move()
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    monkeypatch.setattr(turn, "_public_history", _outage(OperationalError, failures=10**6))
    assert services.matches_timeout_overdue() == 0
    assert "database unavailable: the overdue deadlines wait for the next tick" in caplog.text
    assert "the overdue timeout of match" not in caplog.text
    monkeypatch.undo()
    assert services.matches_timeout_overdue() == 1
