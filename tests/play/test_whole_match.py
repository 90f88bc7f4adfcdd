"""Whole matches: humans and bots through the move service to the end, and a casual table of
bots only that plays itself out through Celery (a real worker thread, countdowns and all)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from games.engine import GameState, Rules
from games.models import Match, Move, Table
from play import selectors, services
from tests.celery_worker import celery_worker_on_own_queue
from tests.play.services_support import match_replayed_snapshot, match_state

from .services_support import Chooser, make_user, play_out, player, start_match


def random_human(rng: random.Random) -> Chooser:
    """A human who clicks any legal action (the random-sim conformance idea, through the site)."""

    def choose(state: GameState, seat: int) -> str:
        return str(rng.choice(state.legal_actions(seat)))

    return choose


def assert_finished_consistently(match: Match) -> None:
    """A finished match: every seat placed once, the fool flagged, log and snapshot in step."""
    assert match.status == Match.Status.FINISHED and match.deadline_at is None
    result = match.result
    assert result is not None
    seats = sorted(s for group in result["places"] for s in group)
    assert seats == list(range(Rules.from_dict(match.rules).players))
    fools = {p.seat for p in match.players.all() if p.fool}
    expected = set(result["losing_team"] or ()) | ({result["fool"]} if result["fool"] is not None else set())
    assert fools == expected
    assert all(p.place is not None for p in match.players.all())
    assert list(match.moves.values_list("seq", flat=True)) == list(range(1, match.moves.count() + 1))
    assert match_replayed_snapshot(match) == match.snapshot
    assert match_state(match).is_over


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rules", "humans", "level"),
    [
        (Rules(players=2), 2, None),
        (Rules.for_variant("podkidnoy", players=4), 2, "easy"),
        (Rules.for_variant("perevodnoy", players=3), 1, "random"),
        (Rules.for_variant("podkidnoy", players=4, teams=True), 2, "easy"),
        (Rules.for_variant("circle", players=3), 2, "easy"),
    ],
    ids=["2-humans", "2-humans-2-bots", "perevodnoy-1-human", "teams", "circle"],
)
def test_humans_and_bots_play_a_match_to_its_end_through_the_service(
    monkeypatch: pytest.MonkeyPatch, rules: Rules, humans: int, level: str | None
) -> None:
    seed = f"whole-{rules.variant}-{rules.players}"
    monkeypatch.setattr("play.services.tables.new_seed", lambda: seed)
    users = [make_user(f"human{i}") for i in range(humans)]
    match = start_match(humans=users, rules=rules, bot_level=level)
    match = play_out(match, choose=random_human(random.Random(4)))
    assert_finished_consistently(match)
    kinds = set(match.moves.values_list("by", flat=True))
    assert Move.By.PLAYER in kinds and (level is None or Move.By.BOT in kinds)
    table = Table.objects.get(pk=match.table_id)
    assert table.status == Table.Status.PLAYING  # seats kept for "play again"


@pytest.fixture
def celery_worker_thread() -> Iterator[None]:
    """A real Celery worker thread on a queue of its own, with no human-like bot delay."""
    with celery_worker_on_own_queue("test-games"):
        yield


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_casual_table_of_bots_only_plays_out_through_celery(celery_worker_thread: None) -> None:
    host = make_user("watcher")
    table = services.table_create(creator=host, rules=Rules(players=3), sit=False)
    services.seats_fill_with_bots(table_id=table.pk, user=host, level="random")
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if not match.is_active:
            break
        time.sleep(0.1)
    assert not match.is_active, f"stuck at version {match.version}"
    assert match.version > 10
    assert_finished_consistently(match)
    assert set(match.moves.values_list("by", flat=True)) == {Move.By.BOT}
    assert all(player(match, s).user.is_bot for s in range(3))
