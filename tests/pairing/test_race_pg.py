"""Many simultaneous "Play now", on PostgreSQL, one thread (and one connection) each, as several
daphnes would send them: every table is made exactly once, everyone sits at exactly one table,
every table is full and dealt, and nobody is left waiting who could have been seated."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from accounts.models import User
from games.models import Match, Seat, Table
from pairing import services
from pairing.models import Seek
from pairing.setups import GRID, Setup
from play.services import turn
from tests.play.services_support import make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DUEL = GRID[0]
FOUR = next(s for s in GRID if s.players == 4 and not s.teams)


@pytest.fixture(autouse=True)
def _quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests commit for real: keep deadlines off any broker, pushes off the channel layer."""
    monkeypatch.setattr(turn, "enqueue_on_commit", lambda *args, **kwargs: None)
    monkeypatch.setattr("pairing.push.group_send_on_commit", lambda *args, **kwargs: None)


def play_now_at_once(seekers: list[tuple[User, Setup]]) -> list[BaseException]:
    barrier = threading.Barrier(len(seekers))
    errors: list[BaseException] = []

    def go(user: User, setup: Setup) -> None:
        try:
            barrier.wait(timeout=20)
            services.seek_open(user=user, setup=setup)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=go, args=pair) for pair in seekers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


@pytest.mark.parametrize("round_", range(3))
def test_simultaneous_play_now_make_every_table_exactly_once(round_: int) -> None:
    duelists = [make_user(f"d{round_}-{n}") for n in range(12)]
    fours = [make_user(f"f{round_}-{n}") for n in range(8)]
    errors = play_now_at_once([(u, DUEL) for u in duelists] + [(u, FOUR) for u in fours])
    assert errors == []
    tables = list(Table.objects.all())
    assert Counter(t.players for t in tables) == {2: 6, 4: 2}
    seated = Counter(Seat.objects.values_list("user_id", flat=True))
    assert set(seated) == {u.pk for u in duelists + fours} and set(seated.values()) == {1}
    assert Match.objects.count() == len(tables)
    assert all(t.seats.count() == t.players for t in tables)
    assert not Seek.objects.filter(status=Seek.Status.WAITING).exists()
    assert Seek.objects.filter(status=Seek.Status.MATCHED).count() == 20
