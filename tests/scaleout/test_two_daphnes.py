"""Scale-out: two daphne processes and two Celery workers sharing Redis and PostgreSQL.

Alice's socket lives on daphne A, Bob's on daphne B, and a bot fills the third seat: its turns
and every deadline run on whichever worker takes them. They play one whole match; every move
reaches both processes through the Redis channel layer.
"""

from __future__ import annotations

import pytest

from games.models import Move
from tests.faults.players import run_players
from tests.faults.stack import Stack
from tests.faults.support import assert_whole_and_consistent, client, deal, human

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


def test_players_on_two_daphnes_and_bots_on_two_workers_play_one_match(stack: Stack) -> None:
    port_a, port_b = stack.daphne("daphne-a"), stack.daphne("daphne-b")
    stack.worker("worker-1")
    stack.worker("worker-2")
    alice, bob = human("alice"), human("bob")
    match = deal([alice, bob], players=3, bots="random")
    stack.rearm()
    players = [client(alice, [port_a]), client(bob, [port_b])]
    run_players(players, match.pk, timeout=150)
    moves = assert_whole_and_consistent(match, players)
    assert any(m.by == Move.By.BOT for m in moves)
    assert all(p.reconnects == 0 for p in players)
