"""Honest players' lobby handshakes, alone and under a flood of anonymous chat handshakes from one
client address: their p50 and p99 (issue #35).

It measures a site that is already served, so the same run can be made against any code (start
daphne from the tree before a change, then from the tree after it), with
``DJANGO_TRUSTED_PROXIES=1``: every honest player then counts as an address of its own
(``X-Forwarded-For``, as a proxy passes it) and the flood as one other. The site must use this
command's database.

It signs in ``--honest`` players (session rows in this database) and deals one public match whose
chat the flood opens. Each player opens a lobby socket, waits for its first frame (the lobby's
tables), closes it and starts again after ``--pause`` seconds, for ``--seconds``: first alone,
then while ``python -m tools.flood --kinds handshakes`` keeps ``--flood`` anonymous handshakes
going at once. Printed per phase: the handshake's time to the ``101`` answer and to the first
frame (p50, p99, max), the honest failures, and the flood's answers by status.

    python manage.py bench_handshakes --port 8001 --honest 10 --flood 200 --seconds 10
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts.models import User
from games.engine import Rules
from games.models import Table
from play import selectors, services
from tools import loadclient
from tools.management.commands.loadtest import ROOT, load_users, login_cookie, player_address

#: The flooding client's address (TEST-NET-3), apart from every honest player's ``10.x.y.z``.
FLOOD_ADDRESS = "203.0.113.66"


@dataclass
class Phase:
    """What the honest players saw in one phase."""

    upgraded: list[float] = field(default_factory=list)
    first_frame: list[float] = field(default_factory=list)
    failures: dict[str, int] = field(default_factory=dict)

    def fail(self, kind: str) -> None:
        self.failures[kind] = self.failures.get(kind, 0) + 1

    def summary(self) -> dict[str, Any]:
        def figures(values: list[float]) -> dict[str, float]:
            if not values:
                return {}
            return {
                "p50_ms": round(loadclient.percentile(values, 0.5) * 1000, 1),
                "p99_ms": round(loadclient.percentile(values, 0.99) * 1000, 1),
                "max_ms": round(max(values) * 1000, 1),
            }

        return {
            "handshakes": len(self.upgraded),
            "to_101": figures(self.upgraded),
            "to_first_frame": figures(self.first_frame),
            "failures": self.failures,
        }


async def honest_player(
    host: str, port: int, cookie: str, address: str, until: float, pause: float, phase: Phase
) -> None:
    while time.monotonic() < until:
        started = time.perf_counter()
        try:
            ws = await loadclient.WebSocket.connect(host, port, "/ws/lobby/", cookie=cookie, address=address)
        except loadclient.WebSocketClosed as refused:
            phase.fail(str(refused.code))
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
            phase.fail(type(error).__name__)
        else:
            phase.upgraded.append(time.perf_counter() - started)
            try:
                await asyncio.wait_for(ws.receive_text(), 10)
                phase.first_frame.append(time.perf_counter() - started)
            except (loadclient.WebSocketClosed, OSError, TimeoutError, asyncio.IncompleteReadError) as error:
                phase.fail(f"frame:{type(error).__name__}")
            await ws.close()
        await asyncio.sleep(pause)


async def honest_phase(host: str, port: int, cookies: list[str], seconds: float, pause: float) -> Phase:
    phase = Phase()
    until = time.monotonic() + seconds
    await asyncio.gather(
        *(
            honest_player(host, port, cookie, player_address(number), until, pause, phase)
            for number, cookie in enumerate(cookies)
        )
    )
    return phase


def public_match(users: list[User]) -> int:
    """A dealt two-player match at a public table: anyone may open its chat (an earlier run's,
    while it is in play)."""
    for table_id in (
        Table.objects.filter(creator=users[0], private=False).order_by("-pk").values_list("pk", flat=True)
    ):
        found = selectors.table_current_match(table_id=table_id)
        if found is not None:
            return int(found.pk)
    table = services.table_create(creator=users[0], rules=Rules())
    services.table_join(table_id=table.pk, user=users[1])
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None
    return int(match.pk)


class Command(BaseCommand):
    help = "Honest lobby handshakes (p50, p99) alone and under a chat handshake flood."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, required=True, help="the served site's port")
        parser.add_argument("--honest", type=int, default=10, help="signed-in players opening lobbies")
        parser.add_argument("--flood", type=int, default=200, help="anonymous chat handshakes at once")
        parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
        parser.add_argument("--pause", type=float, default=0.5, help="a player's seconds between handshakes")
        parser.add_argument("--flood-pause", type=float, default=0.0, help="a flood connection's pause")

    def handle(self, *args: Any, **options: Any) -> None:
        host, port = options["host"], options["port"]
        users = load_users(max(2, options["honest"]))
        cookies = [login_cookie(user) for user in users[: options["honest"]]]
        match_id = public_match(users[-2:])
        alone = asyncio.run(honest_phase(host, port, cookies, options["seconds"], options["pause"]))
        flood = subprocess.Popen(
            [
                sys.executable, "-m", "tools.flood", "--kinds", "handshakes", "--host", host,
                "--ports", str(port), "--size", str(options["flood"]), "--matches", str(match_id),
                "--address", FLOOD_ADDRESS, "--pause", str(options["flood_pause"]),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
        )  # fmt: skip
        try:
            flooded = asyncio.run(honest_phase(host, port, cookies, options["seconds"], options["pause"]))
        finally:
            flood.send_signal(signal.SIGTERM)
            output, _ = flood.communicate(timeout=60)
        report = {
            "honest": options["honest"],
            "flood": options["flood"],
            "alone": alone.summary(),
            "flooded": flooded.summary(),
            "flood_answers": json.loads(output or b"{}"),
        }
        self.stdout.write(json.dumps(report, indent=2))
