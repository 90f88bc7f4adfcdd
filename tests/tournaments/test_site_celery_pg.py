"""Whole tournaments of bots played out by Celery on PostgreSQL and Redis (an elimination, and
two arenas at once: duels and tables of three), and two matches that end at the same moment
advancing the bracket exactly once (threads on PostgreSQL)."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator

import pytest
from django.db import connection

from accounts.models import User
from games.engine import Rules
from games.models import Match, Table
from games.results import place_of
from tests.celery_worker import celery_worker_on_own_queue
from tests.play.services_support import make_user, play_out
from tests.tournaments.support import open_arena, open_with_bots, started_with_player
from tournaments import selectors, services
from tournaments.formats.arena.scoring import BERSERK_MIN_MOVES, ArenaGame, finish_of, leaderboard
from tournaments.formats.multitable import TableResult
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


@pytest.mark.redis
@pytest.mark.slow
def test_two_arenas_of_bots_are_played_out_by_celery(celery_worker_thread: None) -> None:
    """A duel arena of four bots and an arena of seven bots at tables of three (one of them always
    waits a while, then the pass queued for the end of their wait seats them) run side by side
    on one worker for about twenty seconds; then the organiser ends the time, the games in play
    finish and count, and the last one finishes each arena."""
    organiser = make_user("organiser")
    duels = open_arena(organiser, 4, rules=DECISIVE, name="Duel arena")
    tables = open_arena(organiser, 7, rules=Rules(players=3, deck=36).to_dict(), name="Table arena")
    for arena in (duels, tables):
        services.tournament_start(tournament_id=arena.pk, user=organiser)

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = [arena.pairings.filter(status=Pairing.Status.DONE).count() for arena in (duels, tables)]
        if done[0] >= 6 and done[1] >= 4:
            break
        time.sleep(0.5)
    assert done[0] >= 6 and done[1] >= 4, done
    for arena in (duels, tables):
        services.tournament_finish(tournament_id=arena.pk, user=organiser)

    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        both = Tournament.objects.filter(pk__in=[duels.pk, tables.pk])
        statuses = set(both.values_list("status", flat=True))
        if statuses == {Tournament.Status.FINISHED}:
            break
        time.sleep(0.5)
    assert statuses == {Tournament.Status.FINISHED}, statuses

    for arena in (duels, tables):
        arena.refresh_from_db()
        matches = list(
            Match.objects.filter(table__tournament_pairing__tournament=arena).prefetch_related("players")
        )
        assert matches and all(m.status == Match.Status.FINISHED for m in matches)
        assert not arena.pairings.filter(status=Pairing.Status.PLAYING).exists()
        assert (
            not Table.objects.filter(tournament_pairing__tournament=arena)
            .exclude(status=Table.Status.CLOSED)
            .exists()
        ), "every finished arena table was left and closed"
        # Nobody was ever in two games at once.
        spans: dict[int, list[tuple[float, float]]] = {}
        for match in matches:
            assert match.finished_at is not None
            for player in match.players.all():
                spans.setdefault(player.user_id, []).append(
                    (match.started_at.timestamp(), match.finished_at.timestamp())
                )
        for user_spans in spans.values():
            user_spans.sort()
            for (_start, end), (start, _end) in itertools.pairwise(user_spans):
                assert start >= end, "a player in two games at once"
        # The leaderboard's points are the sum of the recorded results, and the places its ranks.
        lines = selectors.arena_leaderboard(arena)
        base = 0
        recorded = []
        for number, match in enumerate(sorted(matches, key=lambda m: (m.finished_at, m.pk)), start=1):
            assert match.result is not None
            seats = {p.seat: p.user_id for p in match.players.all()}
            places = {seats[s]: place_of(match.result, s) for s in seats}
            result = _table_result(places, match.result, seats)
            base += sum(finish_of(result, p).points for p in places)
            recorded.append(ArenaGame(number, result, long_enough=match.last_seq >= BERSERK_MIN_MOVES))
        assert sum(line.points for line in lines) >= base  # streaks double some games
        again = {line.player: line.points for line in leaderboard([ln.player for ln in lines], recorded)}
        assert {line.player: line.points for line in lines} == again, "points = the games' own results"
        assert sum(line.games for line in lines) == sum(len(m.players.all()) for m in matches)
        ranks: dict[int, int | None] = {line.player: line.rank for line in lines}
        assert dict(arena.entries.values_list("player_id", "place")) == ranks
        assert arena.winner_id == (lines[0].player if [ln.rank for ln in lines].count(1) == 1 else None)
    sizes = {len(m.players.all()) for m in Match.objects.filter(table__tournament_pairing__tournament=tables)}
    assert sizes == {3}


def _table_result(places: dict[int, int], result: dict[str, object], seats: dict[int, int]) -> TableResult:
    fool = result.get("fool")
    return TableResult.from_places(places, seats.get(fool) if isinstance(fool, int) else None)


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
