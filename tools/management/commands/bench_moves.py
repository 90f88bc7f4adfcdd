"""``manage.py bench_moves``: what one move costs the server, in process, on the configured
database and channel layer.

Why: the load test (``manage.py loadtest``) measures the whole stack, where a slow part hides
behind queues and the clients' own work. This plays two-player matches between two throwaway
accounts through the calls the match socket makes and prints, per move (medians), the wall time,
CPU time and queries of each step:

- ``apply``: ``services.action_apply`` (lock, check, apply, log, commit, broadcast);
- ``mover``: the mover's page drawn from the match the move returns (``fragments.match_fragments``);
- ``other``: the other seat's push, read from the database as its socket does;
- ``move``: the whole move, the sum of the three (apply plus every seated socket's push).

It writes to the configured database (throwaway accounts and tables, deleted at the end, with
turn timers ten minutes out): point ``DATABASE_URL`` at a scratch database.

Where PostgreSQL runs on this machine, each step also shows the CPU its server process spent
(``db_cpu_ms``, from the scheduler's count in ``/proc/<pid>/schedstat``): a move's cost is paid
there too, and the load test's machine shares its cores with it.

On a noisy machine the CPU times of one code vary from run to run by more than most changes are
worth. The instructions the process executes do not: ``--untimed`` plays the moves without the
bench's clocks and counters, ``--seed`` deals the same games in every run, and the difference
between the instruction counts of two runs under ``valgrind --tool=cachegrind --cache-sim=no``
(say 20 and 220 moves, with ``PYTHONHASHSEED=0``), divided by the difference in moves, is what a
move costs the process, every thread included (the broadcast's send too), the same to a hundredth
of a per cent from run to run (``docs/performance.md``). The database server's
instructions are not in it.

Run it as production serves, with ``DJANGO_DEBUG=0`` (as ``loadtest`` starts its processes):
with ``DEBUG`` on, every query is logged and the Jinja2 templates are checked for changes at each
draw, about a twentieth more CPU a move here. It measures either way and says so (``debug`` in
the JSON), so that two runs compared are run alike.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import statistics
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from types import TracebackType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from accounts.models import User
from games.engine import Rules
from games.models import Table
from play import selectors, services
from play.fragments import match_fragments
from play.services import tables

STEPS = ("apply", "mover", "other")
#: The per-move sum of the steps: what the whole move costs the server.
TOTAL = "move"
DEBUG_ON = (
    "DEBUG is on: every query is logged and templates are checked for changes, which production"
    " does not do. Run with DJANGO_DEBUG=0 to measure a move as it is served."
)


@dataclass
class Costs:
    """Samples of one step: wall ms, CPU ms (this thread's and the database server's), queries,
    bytes sent."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    db_cpu: list[float] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        summary = {
            "wall_ms": round(statistics.median(self.wall), 2),
            "cpu_ms": round(statistics.median(self.cpu), 2),
            "queries": statistics.median(self.queries),
            "bytes": statistics.median(self.sizes) if self.sizes else 0,
        }
        if self.db_cpu:
            summary["db_cpu_ms"] = round(statistics.median(self.db_cpu), 2)
        return summary


class Command(BaseCommand):
    help = "Measure a move's apply and its pushes in process (median per move)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--moves", type=int, default=400, help="moves to play in all")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument(
            "--seed",
            default="",
            help="deal the same games in every run (the tables' server seeds made from this text):"
            " two codes' instruction counts then compare the same moves",
        )
        parser.add_argument(
            "--untimed",
            action="store_true",
            help="play the moves without measuring them: for counting the whole process's instructions"
            " under valgrind (docs/performance.md), which the bench's own clocks and counters would add to",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        token = secrets.token_hex(4)
        names = [f"bench-{token}-{seat}" for seat in range(2)]
        users = [User.objects.create_user(username=name, password=None, display_name=name) for name in names]
        costs = {step: Costs() for step in (*STEPS, TOTAL)}
        self.server = _server_process()
        self.timed = not options["untimed"]
        own_seed = tables.new_seed
        if options["seed"]:
            seeds = (hashlib.sha256(f"{options['seed']}:{n}".encode()).hexdigest()[:32] for n in count())
            # The hook the tests replace to choose a deal (``tables.new_seed``), put back below.
            tables.new_seed = lambda: next(seeds)
        try:
            played = 0
            while played < options["moves"]:
                played += self._play_match(users, options["moves"] - played, costs)
        finally:
            tables.new_seed = own_seed
            Table.objects.filter(creator__in=users).delete()
            User.objects.filter(pk__in=[u.pk for u in users]).delete()
        result: dict[str, Any] = {"moves": played, "debug": settings.DEBUG}
        if not self.timed:
            self.stdout.write(json.dumps(result) if options["json"] else f"moves played: {played} (untimed)")
            return
        result.update({step: costs[step].summary() for step in (*STEPS, TOTAL)})
        if settings.DEBUG:
            self.stderr.write(DEBUG_ON)
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(f"moves played: {result['moves']} (medians per move)")
        for step in (*STEPS, TOTAL):
            s = result[step]
            db = f" {s['db_cpu_ms']:6.2f} ms database CPU" if "db_cpu_ms" in s else ""
            self.stdout.write(
                f"{step:>6}: {s['wall_ms']:6.2f} ms wall {s['cpu_ms']:6.2f} ms CPU{db} "
                f"{s['queries']:4} queries {s['bytes']:7} bytes"
            )

    def _play_match(self, users: list[User], budget: int, costs: dict[str, Costs]) -> int:
        """Play one match (at most ``budget`` moves), measuring every move's steps."""
        # Arranged by the bench, as a tournament arranges its tables: a player's limits on the
        # tables they open (``services.limits``) are not what it measures.
        table = services.table_create(creator=users[0], rules=Rules(), turn_seconds=600, organised=True)
        services.table_join(table_id=table.pk, user=users[1])
        match = selectors.table_current_match(table_id=table.pk)
        assert match is not None
        seats = {p.seat: p.user_id for p in match.players.all()}
        loaded = selectors.match_load(match_id=match.pk)
        assert loaded is not None
        shown = {user.pk: match_fragments(loaded, user)[2] for user in users}
        played = 0
        # Each move is chosen on the state the move before returned (as committed), so that the
        # bench reads nothing of its own between the moves it measures.
        current = loaded
        while played < budget and not current.finished:
            seat = min(current.state.awaiting())
            mover = next(u for u in users if u.pk == seats[seat])
            other = next(u for u in users if u is not mover)
            with self._step(costs["apply"]):
                applied = services.action_apply(
                    match_id=match.pk,
                    user=mover,
                    action_text=str(current.state.default_action(seat)),
                    expected_version=current.version,
                )
            with self._step(costs["mover"]) as sent:
                html, _version, shown[mover.pk] = match_fragments(applied, mover, log_after=shown[mover.pk])
                sent.append(len(html))
            with self._step(costs["other"]) as sent:
                pushed = selectors.match_load(match_id=match.pk, moves_after=shown[other.pk])
                assert pushed is not None
                html, _version, shown[other.pk] = match_fragments(pushed, other, log_after=shown[other.pk])
                sent.append(len(html))
            if self.timed:
                total = costs[TOTAL]
                total.wall.append(sum(costs[step].wall[-1] for step in STEPS))
                total.cpu.append(sum(costs[step].cpu[-1] for step in STEPS))
                if self.server is not None:
                    total.db_cpu.append(sum(costs[step].db_cpu[-1] for step in STEPS))
                total.queries.append(sum(costs[step].queries[-1] for step in STEPS))
            played += 1
            current = applied
        return played

    def _step(self, costs: Costs) -> AbstractContextManager[list[int]]:
        """Measures one step into ``costs``, or, untimed, only hands it a list to put sizes in."""
        return _measured(costs, self.server) if self.timed else nullcontext([])


def _server_process() -> Path | None:
    """The schedstat file of the database server process serving this connection, when it is
    PostgreSQL on this machine (else None)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        path = Path(f"/proc/{cursor.fetchone()[0]}/schedstat")
    return path if _on_cpu_ns(path) is not None else None


def _on_cpu_ns(path: Path) -> int | None:
    """Nanoseconds the process has run on a CPU (the first field of its schedstat)."""
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


class _measured:
    """Times a block (wall, this thread's CPU and the database server's) and counts its queries
    into ``costs`` (with an execute wrapper rather than the debug cursor, whose logging would be
    measured too). The block may append the bytes it produced to the list it is given."""

    def __init__(self, costs: Costs, server: Path | None) -> None:
        self.costs = costs
        #: The database server process's schedstat (``_server_process``), read around the block.
        self.server = server
        self.queries = 0

    def _count(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.queries += 1
        return execute(sql, params, many, context)

    def __enter__(self) -> list[int]:
        self.wrapper = connection.execute_wrapper(self._count)
        self.wrapper.__enter__()
        self.db_cpu = _on_cpu_ns(self.server) if self.server is not None else None
        self.wall = time.perf_counter()
        self.cpu = time.thread_time()
        return self.costs.sizes

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        cpu = time.thread_time() - self.cpu
        wall = time.perf_counter() - self.wall
        self.wrapper.__exit__(exc_type, exc, tb)
        self.costs.wall.append(wall * 1000)
        self.costs.cpu.append(cpu * 1000)
        self.costs.queries.append(self.queries)
        if self.server is not None:
            after = _on_cpu_ns(self.server)
            spent = after - self.db_cpu if after is not None and self.db_cpu is not None else 0
            self.costs.db_cpu.append(spent / 1e6)
