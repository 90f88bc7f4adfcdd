"""Two web "hosts" and a worker "host" (process groups of their own, each with its own metrics
folder, as on separate machines) share one PostgreSQL and one Redis: a match whose players sit on
different hosts plays to its end, and each host's metrics count the moves its own processes made."""

from __future__ import annotations

from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry, generate_latest, multiprocess
from prometheus_client.parser import text_string_to_metric_families

from games.models import Move
from tests.faults.players import run_players
from tests.faults.stack import Stack
from tests.faults.support import assert_whole_and_consistent, client, deal, human

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


def moves_counted(folder: Path, by: str) -> float:
    """``durak_moves_applied_total{by=...}`` summed over one host's processes."""
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=str(folder))  # type: ignore[no-untyped-call]
    return sum(
        sample.value
        for family in text_string_to_metric_families(generate_latest(registry).decode())
        for sample in family.samples
        if sample.name == "durak_moves_applied_total" and sample.labels.get("by") == by
    )


def test_players_on_two_web_hosts_and_a_bot_on_the_worker_host(stack: Stack, tmp_path: Path) -> None:
    hosts = {name: tmp_path / name for name in ("web-1", "web-2", "workers")}
    for folder in hosts.values():
        folder.mkdir()
    stack.env["PROMETHEUS_MULTIPROC_DIR"] = str(hosts["web-1"])
    port_1 = stack.daphne("daphne-1")
    stack.env["PROMETHEUS_MULTIPROC_DIR"] = str(hosts["web-2"])
    port_2 = stack.daphne("daphne-2")
    stack.env["PROMETHEUS_MULTIPROC_DIR"] = str(hosts["workers"])
    stack.worker("worker")
    alice, bob = human("alice"), human("bob")
    match = deal([alice, bob], players=3, bots="random")
    stack.rearm()
    players = [client(alice, [port_1]), client(bob, [port_2])]
    run_players(players, match.pk, timeout=150)
    moves = assert_whole_and_consistent(match, players)

    by_player = sum(1 for move in moves if move.by == Move.By.PLAYER)
    by_bot = sum(1 for move in moves if move.by == Move.By.BOT)
    assert by_bot > 0
    web_1, web_2 = moves_counted(hosts["web-1"], "player"), moves_counted(hosts["web-2"], "player")
    assert web_1 > 0 and web_2 > 0 and web_1 + web_2 == by_player
    assert moves_counted(hosts["workers"], "bot") == by_bot
    assert moves_counted(hosts["workers"], "player") == 0
