"""Helpers for the live-play service tests: users, tables dealt from a chosen seed, and a driver
that plays whoever the engine awaits through the services.

Plain functions rather than fixtures so that threaded race tests and Celery tests can call them
outside pytest's fixture graph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from django.db.models import Prefetch, QuerySet

from accounts.models import User
from durak_site.celery import app as celery_app
from games.engine import GameState, Rules
from games.models import Match, MatchPlayer, Seat, Table
from play import selectors, services
from play.loaded import LoadedMatch
from play.services import turn


def make_user(name: str) -> User:
    """A human account called ``name`` (no password: hashing one costs a second a test)."""
    return User.objects.create_user(
        username=name, email=f"{name}@example.com", password=None, display_name=name
    )


def start_match(
    *,
    humans: list[User],
    rules: Rules | None = None,
    bot_level: str | None = None,
    turn_seconds: int = 30,
    throw_in_seconds: int = 5,
) -> Match:
    """A table of ``humans`` in seat order (plus bots of ``bot_level`` on the rest), dealt (at
    once, also when a player's page is open and the table would wait for its value).

    Patch ``play.services.tables.new_seed`` beforehand to choose the deal."""
    rules = rules or Rules()
    table = services.table_create(
        creator=humans[0], rules=rules, turn_seconds=turn_seconds, throw_in_seconds=throw_in_seconds
    )
    for user in humans[1:]:
        services.table_join(table_id=table.pk, user=user)
    if bot_level is not None:
        services.seats_fill_with_bots(table_id=table.pk, user=humans[0], level=bot_level)
    table.refresh_from_db()
    if table.status == Table.Status.DEALING:
        services.match_start(table_id=table.pk)
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None, "the table did not start"
    return match


def bot_to_move() -> tuple[Match, int]:
    """A human against an easy bot from a fixed deal, played on until the bot is awaited; the
    match and the bot's seat."""
    human = make_user("human")
    with mock.patch("play.services.tables.new_seed", return_value="bot-seed"):
        match = start_match(humans=[human], bot_level="easy")
    for _ in range(20):
        match.refresh_from_db()
        state = state_of(match)
        bot_seats = [s for s in state.awaiting() if player(match, s).user.is_bot]
        if bot_seats:
            return match, bot_seats[0]
        seat = min(state.awaiting())
        services.action_apply(
            match_id=match.pk,
            user=human,
            action_text=str(state.default_action(seat)),
            expected_version=match.version,
        )
    raise AssertionError("the bot never got a turn")


def state_of(match: Match) -> GameState:
    """The engine state stored for ``match`` (re-read from the database)."""
    match.refresh_from_db()
    return match_state(match)


def player(match: Match, seat: int) -> MatchPlayer:
    return match.players.select_related("user").get(seat=seat)


def play_default(match: Match) -> LoadedMatch:
    """The first awaited seat (a human's) plays the engine's default through ``action_apply``;
    ``match`` is refreshed."""
    match.refresh_from_db()
    state = match_state(match)
    seat = min(state.awaiting())
    result = services.action_apply(
        match_id=match.pk,
        user=player(match, seat).user,
        action_text=str(state.default_action(seat)),
        expected_version=match.version,
    )
    match.refresh_from_db()
    return result


def to_the_throw_in_window(match: Match) -> None:
    """Play the engine's defaults until only throwers are awaited (``docs/rules.md`` §3
    "Waiting for the throwers")."""
    for _ in range(20):
        if turn.in_throw_in_window(state_of(match)):
            return
        play_default(match)
    raise AssertionError("the throw-in window never opened")


@contextmanager
def task_sends(name: str) -> Iterator[mock.Mock]:
    """Catch the sends of the Celery task registered as ``name`` (the services send their tasks
    by name: ``durak_site.tasks.enqueue_on_commit``); the mock is called as ``send_task`` is, minus
    the name (``args=``, ``kwargs=``, ``countdown=``). Other tasks are sent as before."""
    caught = mock.Mock()
    send_task = celery_app.send_task

    def sending(task: str, *args: Any, **kwargs: Any) -> Any:
        if task == name:
            return caught(*args, **kwargs)
        return send_task(task, *args, **kwargs)

    with mock.patch.object(celery_app, "send_task", sending):
        yield caught


Chooser = Callable[[GameState, int], str]


def lowest_default(state: GameState, seat: int) -> str:
    """A human who plays what the timeout would: quick, legal, deterministic."""
    return str(state.default_action(seat))


def play_out(match: Match, *, choose: Chooser = lowest_default, limit: int = 5000) -> Match:
    """Play until the match ends: humans through ``action_apply`` with ``choose``, bots and
    autopilots through ``bot_turn``. Returns the finished match."""
    for _ in range(limit):
        match.refresh_from_db()
        if not match.is_active:
            return match
        state = match_state(match)
        seat = min(state.awaiting())
        seated = player(match, seat)
        if seated.user.is_bot or seated.autopilot:
            assert services.bot_turn(match_id=match.pk, version=match.version, seat=seat)
        else:
            services.action_apply(
                match_id=match.pk,
                user=seated.user,
                action_text=choose(state, seat),
                expected_version=match.version,
            )
    raise AssertionError("the match did not end")


def match_state(match: Match) -> GameState:
    """The engine state of the stored snapshot."""
    return GameState.from_json(match.snapshot)


def match_replayed_snapshot(match: Match) -> dict[str, object]:
    """The snapshot rebuilt from the move log alone (equal to ``match.snapshot``)."""
    return selectors.match_record(match).replay().to_json()


def playing_tables() -> QuerySet[Table]:
    """Public tables with a match in play."""
    return (
        Table.objects.filter(status=Table.Status.PLAYING, private=False, matches__status=Match.Status.ACTIVE)
        .select_related("creator")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .distinct()
    )
