"""One writer per match, proven on PostgreSQL: two actions sent at the same version from two
threads have exactly one winner, the loser gets ``StaleVersion`` and nothing is lost (the log,
the version and the snapshot agree, and the loser can repeat the move at the new version).

The position: three players, throw-ins by everyone; after the lead both the attacker and the
third player may throw in and the defender may take, all at the same version.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from games.engine import Rules, new_game
from games.models import Match
from play import services
from play.loaded import LoadedMatch
from play.services import turn
from tests.play.services_support import match_replayed_snapshot, match_state

from .services_support import make_user, player, start_match

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RULES = Rules(players=3)


@dataclass(frozen=True)
class Position:
    seed: str
    lead: str
    attacker: int
    defender: int
    third: int
    attacker_throw: str
    third_throw: str


def find_positions(count: int) -> list[Position]:
    """Seeds whose first lead lets the attacker and the third player both throw in."""
    found = []
    for i in range(2000):
        seed = f"race-{i}"
        state = new_game(RULES, seed=seed)
        (attacker,) = state.awaiting()
        for lead in state.legal_actions(attacker):
            if lead.kind != "attack" or len(lead.cards) != 1:
                continue
            after = state.clone()
            after.apply(attacker, lead)
            view = after.view(attacker)
            defender = view.defender
            assert defender is not None
            (third,) = {0, 1, 2} - {attacker, defender}
            throws = {
                seat: [a for a in after.legal_actions(seat) if a.kind == "attack"]
                for seat in (attacker, third)
            }
            takes = [a for a in after.legal_actions(defender) if a.kind == "take"]
            if throws[attacker] and throws[third] and takes:
                found.append(
                    Position(
                        seed,
                        str(lead),
                        attacker,
                        defender,
                        third,
                        str(throws[attacker][0]),
                        str(throws[third][0]),
                    )
                )
                break
        if len(found) == count:
            return found
    raise AssertionError("no racing position found")


@pytest.fixture(autouse=True)
def _no_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests commit for real: keep their deadlines off any shared broker."""
    monkeypatch.setattr(turn, "enqueue_on_commit", lambda *args, **kwargs: None)


def lead_position(monkeypatch: pytest.MonkeyPatch, position: Position, tag: str) -> Any:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: position.seed)
    users = [make_user(f"{tag}-{n}") for n in range(3)]
    match = start_match(humans=users, rules=RULES)
    services.action_apply(
        match_id=match.pk,
        user=player(match, position.attacker).user,
        action_text=position.lead,
        expected_version=0,
    )
    match.refresh_from_db()
    assert match.version == 1
    return match


def race(match_id: int, moves: list[tuple[User, str]], version: int) -> list[object]:
    """Send every move at ``version`` at once, one thread each; returns results or errors."""
    barrier = threading.Barrier(len(moves))
    outcomes: list[object] = [None] * len(moves)

    def send(i: int, user: User, text: str) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[i] = services.action_apply(
                match_id=match_id, user=user, action_text=text, expected_version=version
            )
        except services.GameError as error:
            outcomes[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i, user, text)) for i, (user, text) in enumerate(moves)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


def assert_one_winner(outcomes: list[object]) -> int:
    winners = [i for i, o in enumerate(outcomes) if isinstance(o, LoadedMatch)]
    losers = [o for o in outcomes if isinstance(o, services.StaleVersion)]
    assert len(winners) == 1 and len(losers) == len(outcomes) - 1, outcomes
    return winners[0]


def assert_log_in_step(match_id: int, version: int) -> None:
    match = Match.objects.get(pk=match_id)
    assert match.version == version
    assert list(match.moves.values_list("seq", flat=True)) == list(range(1, version + 1))
    assert match_replayed_snapshot(match) == match.snapshot


def test_two_throw_ins_at_once_have_exactly_one_winner(monkeypatch: pytest.MonkeyPatch) -> None:
    for n, position in enumerate(find_positions(4)):
        match = lead_position(monkeypatch, position, f"throw{n}")
        moves = [
            (player(match, position.attacker).user, position.attacker_throw),
            (player(match, position.third).user, position.third_throw),
        ]
        winner = assert_one_winner(race(match.pk, moves, version=1))
        assert_log_in_step(match.pk, 2)
        last = match.moves.order_by("-seq").first()
        assert last is not None and last.action == moves[winner][1]

        # Nothing lost: the loser repeats the move at the new version and it lands.
        loser_user, loser_text = moves[1 - winner]
        state = match_state(Match.objects.get(pk=match.pk))
        seat = position.attacker if winner == 1 else position.third
        if loser_text in {str(a) for a in state.legal_actions(seat)}:
            services.action_apply(
                match_id=match.pk, user=loser_user, action_text=loser_text, expected_version=2
            )
            assert_log_in_step(match.pk, 3)


def test_a_take_racing_a_throw_in_has_exactly_one_outcome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    winners = set()
    for n, position in enumerate(find_positions(6)):
        match = lead_position(monkeypatch, position, f"take{n}")
        moves = [
            (player(match, position.defender).user, "take"),
            (player(match, position.third).user, position.third_throw),
        ]
        winner = assert_one_winner(race(match.pk, moves, version=1))
        winners.add(winner)
        assert_log_in_step(match.pk, 2)
        last = match.moves.order_by("-seq").first()
        assert last is not None and last.action == moves[winner][1]
        state = match_state(Match.objects.get(pk=match.pk))
        assert state.view(position.defender).taking == (winner == 0)


def test_many_writers_at_one_version_make_one_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seat's move sent from four tabs at once is applied once."""
    (position,) = find_positions(1)
    match = lead_position(monkeypatch, position, "tabs")
    user = player(match, position.defender).user
    outcomes = race(match.pk, [(user, "take")] * 4, version=1)
    assert_one_winner(outcomes)
    assert_log_in_step(match.pk, 2)
