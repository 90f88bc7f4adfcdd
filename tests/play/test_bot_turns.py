"""Bots in seats: their turns run as Celery tasks that carry the version, so a task delivered
twice (or late) plays once."""

from __future__ import annotations

import pytest

from games import bots
from games.bots.ismcts import Decision
from games.engine import Rules
from games.engine.visibility import View
from games.models import Match, Move
from play import services, tasks

from .services_support import bot_to_move, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture(name="bot_to_move")
def bot_to_move_fixture() -> tuple[Match, int]:
    """A human against an easy bot, played on until the bot is awaited."""
    return bot_to_move()


def test_a_bot_task_delivered_twice_plays_once(bot_to_move: tuple[Match, int]) -> None:
    match, seat = bot_to_move
    version, moves = match.version, match.moves.count()

    first = tasks.bot_turn.apply(args=(match.pk, version, seat)).get()
    second = tasks.bot_turn.apply(args=(match.pk, version, seat)).get()

    assert (first, second) == (True, False)
    match.refresh_from_db()
    assert match.version == version + 1
    assert match.moves.count() == moves + 1
    last = match.moves.order_by("-seq").first()
    assert last is not None and last.by == Move.By.BOT


def test_a_bot_task_for_a_human_seat_or_an_old_version_does_nothing(
    bot_to_move: tuple[Match, int],
) -> None:
    match, seat = bot_to_move
    human_seat = 1 - seat
    assert services.bot_turn(match_id=match.pk, version=match.version, seat=human_seat) is False
    assert services.bot_turn(match_id=match.pk, version=match.version - 1, seat=seat) is False
    before = match.version
    match.refresh_from_db()
    assert match.version == before


def test_the_bots_move_is_legal_and_logged_with_its_events(
    bot_to_move: tuple[Match, int],
) -> None:
    match, seat = bot_to_move
    legal = {str(a) for a in state_of(match).legal_actions(seat)}
    services.bot_turn(match_id=match.pk, version=match.version, seat=seat)
    move = match.moves.order_by("-seq").first()
    assert move is not None and move.seat == seat and move.action in legal and move.events


@pytest.mark.parametrize("failure", ["raises", "illegal"])
def test_a_failing_bot_plays_the_engines_default_instead(
    bot_to_move: tuple[Match, int], monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """A bug in a bot must not leave the match waiting forever."""
    from games import bots
    from games.engine import Action

    def broken(level: str, view: object, legal: object, seed: str, **context: object) -> Decision:
        if failure == "raises":
            raise RuntimeError("bot bug")
        return Decision(Action.parse("redeal"))

    monkeypatch.setattr(bots, "decide", broken)
    match, seat = bot_to_move
    expected = str(state_of(match).default_action(seat))
    assert services.bot_turn(match_id=match.pk, version=match.version, seat=seat)
    move = match.moves.order_by("-seq").first()
    assert move is not None and (move.seat, move.action) == (seat, expected)


def test_a_searching_bot_gets_the_rules_and_the_public_history_not_the_state(
    bot_to_move: tuple[Match, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Medium and strong search over deals consistent with what the seat saw: the service hands
    them the table's rules and every public event so far, next to the seat's view."""
    match, seat = bot_to_move
    seen: dict[str, object] = {}

    def spy(
        view: object, legal: list[object], seed: str, *, rules: object, history: object, late: float = 0.0
    ) -> object:
        seen.update(view=view, rules=rules, history=history)
        return Decision(legal[0])  # type: ignore[arg-type]

    monkeypatch.setitem(bots.SEARCHING, "easy", spy)
    assert services.bot_turn(match_id=match.pk, version=match.version, seat=seat) is True

    assert isinstance(seen["view"], View) and seen["view"].viewer == seat
    assert seen["rules"] == Rules.from_dict(match.rules)
    logged = [event for move in match.moves.order_by("seq") for event in move.events]
    history = seen["history"]
    assert isinstance(history, list) and history == logged[: len(history)] and history
