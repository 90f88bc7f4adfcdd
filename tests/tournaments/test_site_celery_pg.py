"""A whole tournament of bots played out by Celery on PostgreSQL and Redis, and two matches
that end at the same moment advancing the bracket exactly once (threads on PostgreSQL)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from django.db import connection

from accounts.models import User
from games.engine import Rules
from games.models import Match
from tests.celery_worker import celery_worker_on_own_queue
from tests.games.services_support import make_user, play_out
from tests.tournaments.support import open_with_bots, started_with_player
from tournaments import services
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: Games without draws, so one game decides each pairing (a drawn elimination game is replayed).
DECISIVE = Rules(players=2, deck=24, draws=False).to_dict()


@pytest.fixture
def celery_worker_thread() -> Iterator[None]:
    """A real Celery worker thread on a queue of its own, bots answering at once."""
    with celery_worker_on_own_queue("test-tournaments"):
        yield


@pytest.mark.redis
@pytest.mark.slow
def test_a_single_elimination_of_four_bots_is_played_out_by_celery(celery_worker_thread: None) -> None:
    organiser = make_user("organiser")
    tournament = open_with_bots(organiser, 4, third_place=True)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)

    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        time.sleep(0.2)
    assert tournament.status == Tournament.Status.FINISHED, list(
        tournament.pairings.values_list("slot", "status")
    )
    assert tournament.winner is not None
    assert sorted(tournament.pairings.values_list("slot", flat=True)) == ["3P", "W1-1", "W1-2", "W2-1"]
    assert list(tournament.entries.order_by("place").values_list("place", flat=True)) == [1, 2, 3, 4]
    final = tournament.pairings.get(slot="W2-1")
    assert final.winner == tournament.winner
    assert (
        Match.objects.filter(table__tournament_pairing__tournament=tournament)
        .exclude(status=Match.Status.FINISHED)
        .count()
        == 0
    )


def test_two_semi_finals_ending_at_once_create_the_final_once() -> None:
    organiser = make_user("organiser")
    tournament = open_with_bots(organiser, 4, rules=DECISIVE)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    matches = [Match.objects.get(table__tournament_pairing__slot=slot) for slot in ("W1-1", "W1-2")]
    for match in matches:
        play_out(match)  # both end; their tasks have not run (no worker here)

    barrier = threading.Barrier(len(matches) * 2)
    results: list[bool] = []
    errors: list[BaseException] = []

    def record(match_id: int) -> None:
        try:
            barrier.wait(timeout=10)
            results.append(services.match_finished(match_id=match_id))
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    # Each match's task delivered twice, all four at the same moment.
    threads = [threading.Thread(target=record, args=(m.pk,)) for m in matches for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert sorted(results) == [False, False, True, True]
    final = Pairing.objects.get(tournament=tournament, slot="W2-1")
    semis = Pairing.objects.filter(tournament=tournament, slot__in=("W1-1", "W1-2"))
    assert {p.winner_id for p in semis} == set(final.players.values_list("user_id", flat=True))
    assert Match.objects.filter(table=final.table).count() == 1
    assert tournament.pairings.count() == 3


def test_a_withdrawal_during_play_and_a_late_result_do_not_double_advance() -> None:
    organiser: User = make_user("organiser")
    tournament, anna = started_with_player(organiser, 3, "anna", rules=DECISIVE)
    other = Pairing.objects.exclude(players__user=anna).get(tournament=tournament)
    play_out(Match.objects.get(table=other.table))

    def withdraw() -> None:
        services.entry_withdraw(tournament_id=tournament.pk, user=anna)
        connection.close()

    def record() -> None:
        services.match_finished(match_id=Match.objects.get(table=other.table).pk)
        connection.close()

    threads = [threading.Thread(target=withdraw), threading.Thread(target=record)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert tournament.pairings.filter(slot="W2-1").count() == 1
    final = tournament.pairings.get(slot="W2-1")
    assert anna.pk not in set(final.players.values_list("user_id", flat=True))
