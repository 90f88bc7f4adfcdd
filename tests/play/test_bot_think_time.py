"""A bot's answer shows after the same time whether its move was forced or chosen (issue #16 §1:
a quick forced "take" would tell the table that the bot held no card that covers)."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from games import bots
from games.bots.ismcts import STRONG_BUDGET, Decision
from games.bots.medium import MEDIUM_BUDGET
from games.engine import Action, Rules
from play.services import turn


class FakeClock:
    """A clock that the search and the pause move on, so no test waits for real."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.mark.parametrize("level", ["medium", "strong"])
@pytest.mark.parametrize("search_seconds", [0.0, 0.001, 0.1, 0.3])
def test_a_searching_bot_answers_after_its_think_time_however_long_it_searched(
    monkeypatch: pytest.MonkeyPatch, level: str, search_seconds: float
) -> None:
    fake = FakeClock()
    monkeypatch.setattr(turn, "clock", fake)
    monkeypatch.setattr(turn, "pause", fake.sleep)
    started = fake()
    fake.now += min(search_seconds, bots.THINK_SECONDS[level])  # a forced move searches nothing
    turn.think_out(level, started)
    assert fake() - started == pytest.approx(bots.THINK_SECONDS[level])


def test_the_think_time_covers_each_searching_levels_cpu_budget() -> None:
    # the budgets of games.bots.medium / ismcts: on a core of its own the search ends before
    # the answer shows
    assert MEDIUM_BUDGET.cpu_s < bots.THINK_SECONDS["medium"]
    assert STRONG_BUDGET.cpu_s < bots.THINK_SECONDS["strong"]


def test_a_bot_seat_waits_out_the_think_time_even_for_a_forced_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through ``play_bot``: a strong bot whose one legal move is the take still answers after
    its think time (the fake clock counts it)."""
    fake = FakeClock()
    monkeypatch.setattr(turn, "clock", fake)
    monkeypatch.setattr(turn, "pause", fake.sleep)
    monkeypatch.setattr(turn, "_public_history", lambda match: [])
    played: list[str] = []
    monkeypatch.setattr(turn, "play", lambda loaded, seat, action, by: played.append(str(action)))
    take = Action.parse("take")
    state = SimpleNamespace(legal_actions=lambda seat: [take], view=lambda seat: None)
    match = SimpleNamespace(pk=1, version=3, rules=Rules().to_dict(), deadline_at=None)
    user = SimpleNamespace(is_bot=True, bot_level="strong", is_program=False)
    loaded = SimpleNamespace(match=match, state=state)
    started = fake()
    turn.play_bot(loaded, SimpleNamespace(user=user, seat=1))  # type: ignore[arg-type]
    assert played == ["take"]
    assert fake() - started == pytest.approx(bots.THINK_SECONDS["strong"])


def test_a_turn_picked_up_late_tells_the_bot_and_waits_only_from_when_it_was_due(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """The change that armed the turn was 5 s ago (its deadline minus the turn's seconds); the
    turn was due at most ``GAMES_BOT_DELAY``'s upper bound after it, so it is 3 s late: the bot
    is told (and spends less, ``Budget.after``) and the think wait, counted from then, is over."""
    settings.GAMES_BOT_DELAY = (1.0, 2.0)
    fake = FakeClock()
    monkeypatch.setattr(turn, "clock", fake)
    monkeypatch.setattr(turn, "pause", fake.sleep)
    monkeypatch.setattr(turn, "_public_history", lambda match: [])
    monkeypatch.setattr(turn, "turn_seconds_now", lambda match, state, players: 30)
    told: list[float] = []

    def bot(level: str, view: object, legal: list[Action], seed: str, **kwargs: Any) -> Decision:
        told.append(kwargs["late"])
        return Decision(legal[0])

    monkeypatch.setattr(bots, "decide", bot)
    take = Action.parse("take")
    state = SimpleNamespace(legal_actions=lambda seat: [take], view=lambda seat: None)
    deadline = timezone.now() + timedelta(seconds=25)
    match = SimpleNamespace(pk=1, version=3, rules=Rules().to_dict(), deadline_at=deadline)
    user = SimpleNamespace(is_bot=True, bot_level="strong", is_program=False)
    loaded = SimpleNamespace(match=match, state=state, players=[])
    started = fake()
    action, _ = turn.bot_action(loaded, SimpleNamespace(user=user, seat=1))  # type: ignore[arg-type]
    assert str(action) == "take"
    assert told == [pytest.approx(3.0, abs=0.5)]
    assert fake() == started
