"""A bot searches outside the match's lock (``services.bot_turn``): while it thinks, the match
row is free for the other seats' moves and timers; its move is then applied under the lock at
the version it searched, or dropped when the match moved on meanwhile."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import F

from games import bots
from games.models import Match, Move
from play import services

from .services_support import bot_to_move

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _spy_search(monkeypatch: pytest.MonkeyPatch, during: Any) -> None:
    """Make the easy bot call ``during()`` while it searches, then play its first legal move."""

    def search(view: object, legal: list[object], seed: str, **_kwargs: object) -> object:
        during()
        return legal[0]

    monkeypatch.setitem(bots.BOTS, "easy", search)


def _row_locked_elsewhere(match_id: int) -> bool:
    """Whether another connection holds the match row's lock (``FOR UPDATE NOWAIT`` from a
    thread with its own connection fails at once instead of waiting)."""
    locked: list[bool] = []

    def probe() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update(nowait=True).get(pk=match_id)
            locked.append(False)
        except DatabaseError:
            locked.append(True)
        finally:
            connection.close()

    thread = threading.Thread(target=probe)
    thread.start()
    thread.join()
    return locked[0]


def test_the_match_row_is_not_locked_while_a_bot_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    match, seat = bot_to_move()
    seen: list[bool] = []
    _spy_search(monkeypatch, lambda: seen.append(_row_locked_elsewhere(match.pk)))

    assert services.bot_turn(match_id=match.pk, version=match.version, seat=seat) is True
    assert seen == [False]
    last = match.moves.order_by("-seq").first()
    assert last is not None and last.by == Move.By.BOT and last.seat == seat


def test_a_bots_move_is_dropped_when_the_match_moved_on_while_it_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    match, seat = bot_to_move()
    version, moves = match.version, match.moves.count()

    def another_change() -> None:  # any committed change bumps the version
        Match.objects.filter(pk=match.pk).update(version=F("version") + 1)

    _spy_search(monkeypatch, another_change)
    assert services.bot_turn(match_id=match.pk, version=version, seat=seat) is False
    match.refresh_from_db()
    assert (match.version, match.moves.count()) == (version + 1, moves)
