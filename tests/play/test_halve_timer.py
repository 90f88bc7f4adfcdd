"""A seat's own halved turn timer (``services.match_halve_timer``, what an arena's berserk asks
of live play): once, before the seat's first move; the turn in progress is cut at once; the
seat's later turns get half the table's timer; another seat's time is never cut by it."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any, cast

import pytest
from django.utils import timezone

from games.engine import GameState, Rules
from play import services
from play.services import turn

from .services_support import make_user, play_default, play_out, player, start_match, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "halve-seed")


def _awaited_seat(match: Any) -> int:
    return min(state_of(match).awaiting())


def test_the_awaited_seat_halves_its_turn_at_once() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=30)
    seat = _awaited_seat(match)
    version = match.version
    assert services.match_halve_timer(match_id=match.pk, user=player(match, seat).user) == 15
    match.refresh_from_db()
    assert match.version == version + 1
    assert match.deadline_at is not None
    assert match.deadline_at <= timezone.now() + timedelta(seconds=15)  # where beat's clock plays it
    assert player(match, seat).turn_seconds == 15


def test_the_other_seat_keeps_the_tables_timer_and_the_halved_seat_gets_half_later() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=30, throw_in_seconds=30)
    mover = _awaited_seat(match)
    other = 1 - mover
    services.match_halve_timer(match_id=match.pk, user=player(match, other).user)
    match.refresh_from_db()
    assert match.deadline_at is not None
    assert match.deadline_at > timezone.now() + timedelta(seconds=25), "the mover's turn is not cut"
    halved_turns = 0
    for _ in range(40):
        before = timezone.now()
        play_default(match)
        if not match.is_active:
            break
        awaited = set(state_of(match).awaiting())
        assert match.deadline_at is not None
        left = (match.deadline_at - before).total_seconds()
        if awaited == {other}:
            assert 14 <= left <= 16
            halved_turns += 1
        else:
            assert left >= 29
    assert halved_turns > 0


def test_halving_is_refused_after_a_move_twice_or_to_strangers() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=30)
    mover = _awaited_seat(match)
    stranger = make_user("c")
    with pytest.raises(services.NotYourSeat):
        services.match_halve_timer(match_id=match.pk, user=stranger)
    services.match_halve_timer(match_id=match.pk, user=player(match, 1 - mover).user)
    with pytest.raises(services.GameError, match="already"):
        services.match_halve_timer(match_id=match.pk, user=player(match, 1 - mover).user)
    play_default(match)  # the mover has moved
    with pytest.raises(services.GameError, match="first move"):
        services.match_halve_timer(match_id=match.pk, user=player(match, mover).user)
    play_out(match)
    with pytest.raises(services.MatchOver):
        services.match_halve_timer(match_id=match.pk, user=player(match, mover).user)


def test_a_short_table_timer_halves_to_the_floor() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=5)
    halved = services.match_halve_timer(match_id=match.pk, user=player(match, 0).user)
    assert halved == turn.MIN_TURN_SECONDS


def test_several_awaited_seats_keep_the_tables_timer_unless_each_halved_its_own() -> None:
    match = start_match(
        humans=[make_user("a"), make_user("b"), make_user("c")], rules=Rules(players=3), throw_in_seconds=30
    )
    players = list(match.players.all())
    throw_ins = cast(GameState, SimpleNamespace(awaiting=lambda: {0: "throw_in", 2: "throw_in"}))
    players[0].turn_seconds = 15
    assert turn.turn_seconds_now(match, throw_ins, players) == 30
    players[2].turn_seconds = 10
    assert turn.turn_seconds_now(match, throw_ins, players) == 15
