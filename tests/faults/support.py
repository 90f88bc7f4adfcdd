"""Shared by the fault and scale-out tests: the stack fixture, dealing short matches, clients
for seats, and the checks every such test ends with."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from accounts.models import User
from games.engine import Rules
from games.models import Match, Move
from play import services
from tests.play.services_support import match_replayed_snapshot
from tools.management.commands.loadtest import login_cookie

from .players import Player
from .stack import Stack

#: Short games (24 cards) so that a whole match fits in a test.
SHORT = {"deck": 24}


@pytest.fixture
def stack(transactional_db: None, tmp_path: Path) -> Iterator[Stack]:
    started = Stack(tmp_path)
    try:
        yield started
    finally:
        started.close()


def human(name: str) -> User:
    return User.objects.create_user(username=name, email=f"{name}@example.com", display_name=name)


def deal(humans: list[User], *, players: int, bots: str | None = None, turn_seconds: int = 30) -> Match:
    """A short podkidnoy match: ``humans`` in seat order, bots of ``bots`` on the other seats."""
    rules = Rules.for_variant("podkidnoy", players=players, **SHORT)
    table = services.table_create(creator=humans[0], rules=rules, turn_seconds=turn_seconds)
    for user in humans[1:]:
        services.table_join(table_id=table.pk, user=user)
    if bots is not None:
        services.seats_fill_with_bots(table_id=table.pk, user=humans[0], level=bots)
    return Match.objects.get(table=table)


def client(user: User, ports: list[int], **kwargs: object) -> Player:
    return Player(user.username, login_cookie(user), ports, **kwargs)  # type: ignore[arg-type]


def wait_until(condition: Callable[[], bool], *, timeout: float) -> None:
    """Block until ``condition()`` holds (``players.until`` is the one for inside the clients'
    event loop); fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.1)


def assert_the_worker_plays_a_timeout(stack: Stack, match: Match, *, timeout: float) -> None:
    """The stack's process called "worker" plays a timeout in ``match`` within ``timeout`` seconds
    and is still running (a worker that died would otherwise only show as a timeout here)."""
    played = Move.objects.filter(match=match, by=Move.By.TIMEOUT)
    wait_until(lambda: played.exists() or not stack.running("worker"), timeout=timeout)
    assert stack.running("worker"), stack.log("worker")[-3000:]
    assert played.exists()


def assert_whole_and_consistent(match: Match, players: list[Player]) -> list[Move]:
    """The match ended; its log is gapless, replays to the stored snapshot (no move lost or
    applied twice), and no seat has more of its own moves in the log than its client sent."""
    problems = [problem for p in players for problem in p.problems]
    assert not problems, problems
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
    assert match_replayed_snapshot(match) == match.snapshot
    seats = {p.user.username: p.seat for p in match.players.select_related("user")}
    for player in players:
        own = [m for m in moves if m.seat == seats[player.name] and m.by == Move.By.PLAYER]
        assert len(own) <= len(player.sent), (player.name, len(own), len(player.sent))
        sent = {action for _version, action in player.sent}
        assert all(m.action in sent or _same(m.action, sent) for m in own), player.name
    return moves


def _same(action: str, sent: set[str]) -> bool:
    """The log keeps canonical notation; compare parsed actions."""
    from games.engine import Action

    parsed = Action.parse(action)
    return any(Action.parse(text) == parsed for text in sent)
