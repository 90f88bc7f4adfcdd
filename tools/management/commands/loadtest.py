"""``manage.py loadtest``: real matches over websockets against a running stack, with numbers.

Scripted players (``tools.loadclient``) log in (a real server session per account, made here, as
the login view would), sit two to a table and play whole matches through the match sockets,
choosing random legal actions from what their own page offers. Reported: moves per second and
the latency from a move's submission until its update has arrived on every seated socket
(p50/p95/p99), and as the floor the same clients' round trip through the bare ``/ws/echo/``
consumer on the same stack.

By default the command starts the stack itself on free ports and stops it afterwards: with
``REDIS_URL`` set, ``--daphnes`` daphne processes, ``--workers`` Celery workers and ``celery beat``
(its clock closes the throw-in windows) sharing the configured PostgreSQL and Redis (seats of one
table go to different daphnes); without it, one
``manage.py serve`` in the embedded mode. ``--server host:port`` (repeatable) targets servers
that are already running on the same database instead.

``--json`` prints one object: ``{tables, moves, moves_per_s, p50_ms, p95_ms, p99_ms,
echo_p99_ms, errors}``. ``--metrics`` adds ``metrics``: the first daphne's ``/ops/metrics``
scraped before the play and again once the load-test matches are resigned (so no deadline can
play after it), parsed with prometheus-client's parser (``tools.scrape``): the moves the server
committed meanwhile by whom (``player``: the scripted players' own, so their count is
``moves``; ``timeout``: throw-in windows the clock closed while a player thought), and the
server's move times against the client's latencies in the same buckets. The stack it starts gets
``OPS_METRICS_TOKEN`` (a fresh one unless set) and ``PROMETHEUS_MULTIPROC_DIR`` (a temporary
folder unless set), so the daphne answers for every process of the stack.
``--series FILE`` writes every move's latency as CSV (``t_s``: when it was sent, seconds into
the play; ``latency_ms``): a run's tail is often a few bursts (a periodic task, many deadlines
coming due together), which its percentiles do not show.
Load-test accounts are called ``loadtest-<n>``; their matches still running at the end are
resigned so no deadline keeps firing.

``--flood streams|handshakes|requests|all`` (repeatable) is the hostile-load run: the tables play
once without a flood, then once under each flood named, back to back on fresh tables, while one
client (``tools.flood``, a process of its own, at the address ``203.0.113.66``) floods from
``--flood-size`` connections. Each scripted player sends an address of its own in
``X-Forwarded-For``, as the proxy in front would, so a site that trusts one proxy
(``DJANGO_TRUSTED_PROXIES=1``) tells them from the flooding client. It prints one object: per
phase the honest tables' moves, p50, p99 (and its ratio to the no-flood phase), errors, the peak
of PostgreSQL connections and the flood's answers by status; the overall peak, the ceiling
(every process started here and this one, times ``DATABASE_POOL_MAX_SIZE``), and the HTTP 500s
(the flood's and those in the servers' access logs). ``tests/load/test_hostile_load.py`` runs it.

``--nginx`` puts a private nginx in front of the daphnes, as production does: the limits of
docs/production.md's block (``tools/loadtest_nginx.conf``), plain HTTP on a free loopback port,
its files in a temporary folder, stopped however the run ends; the servers it starts then trust
one proxy (``DJANGO_TRUSTED_PROXIES=1``). Everyone connects through it, and nginx tells the
clients apart by their own addresses: each scripted player's sockets come from a loopback address
of its own (``127.0.0.2``, ``127.0.0.3``, …; all of ``127.0.0.0/8`` is this machine on Linux) and
send no ``X-Forwarded-For``; the flood comes from ``127.0.0.1``. nginx's 5xx answers are counted
with the servers'.

``--bots LEVEL`` (``medium`` or ``strong``) seats one scripted player against a bot of that level
at each table, as the home page's "Play a bot" does, and adds the bots' figures: their moves per
second, a bot turn's latency p50/p99 as the player sees it (from the frame that hands the bot the
turn to the frame that shows its move), the level's think wait and whether the p99 stays within
it plus half a second, and from ``/ops/metrics`` the searched decisions' mean CPU milliseconds and
iterations. The bots play on a worker of their own (``-Q bots``, one process per core, as
docs/production.md runs them), with their human-like delay (``GAMES_BOT_DELAY``) off, so a bot
turn's latency is its think wait and what the machine adds to it.
"""

from __future__ import annotations

import asyncio
import csv
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import close_old_connections, connection

from accounts.models import User, capitals_key
from accounts.names import skeleton
from botapi import services as botapi
from botapi.models import ApiToken
from games import bots
from games.engine import Rules
from games.models import Match
from play import selectors, services
from play.services import quick
from tools import flood, loadclient, scrape

ROOT = Path(settings.BASE_DIR)
USER_PREFIX = "loadtest-"
#: Turn timer of load-test tables: long enough that no deadline fires while the clients play.
TURN_SECONDS = 60
#: One echo socket per this many tables measures the echo while they play (reported on stderr
#: only: it shows how much of a move's latency is the loaded stack's own, not the move's work).
LOADED_ECHO_TABLES = 10
#: Tables that open their sockets per second before the measured window: a thundering herd of
#: full renders would otherwise outlast daphne's 5 s websocket handshake timeout.
CONNECTS_PER_SECOND = 20


@dataclass(frozen=True, slots=True)
class Server:
    """A daphne the players connect to."""

    host: str
    port: int


class Command(BaseCommand):
    help = "Play real matches over websockets against the stack and print moves/s and latencies."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=50, help="concurrent two-player tables")
        parser.add_argument("--duration", type=float, default=30.0, help="seconds of play")
        parser.add_argument("--echo-duration", type=float, default=10.0, help="seconds of echo floor")
        parser.add_argument("--think", type=float, default=1.0, help="mean seconds before each move")
        parser.add_argument("--daphnes", type=int, default=2, help="daphne processes to start")
        parser.add_argument("--workers", type=int, default=1, help="Celery workers to start")
        parser.add_argument(
            "--server",
            action="append",
            default=[],
            metavar="HOST:PORT",
            help="use this running server instead of starting one (repeatable)",
        )
        parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument(
            "--metrics",
            action="store_true",
            help="scrape a daphne's /ops/metrics before and after the play and report the server's figures",
        )
        parser.add_argument(
            "--series",
            type=Path,
            metavar="FILE",
            help="write each move's latency to FILE (CSV: t_s,latency_ms)",
        )
        parser.add_argument(
            "--flood",
            action="append",
            default=[],
            choices=[*flood.KINDS, "all"],
            help="after a run without, play again under this flood from one client (repeatable)",
        )
        parser.add_argument("--flood-size", type=int, default=100, help="concurrent connections per flood")
        parser.add_argument(
            "--bots",
            choices=[level for level in bots.LEVELS if level in bots.THINK_SECONDS],
            help="each table: one scripted player against a bot of this level (a bots worker of one "
            "process per core; the bots' human-like delay off, so a bot turn shows after its think wait)",
        )
        parser.add_argument(
            "--nginx",
            action="store_true",
            help="connect through a private nginx with docs/production.md's limits (needs nginx)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.served, self.proxy_log = [], None
        tables = options["tables"]
        if tables < 1:
            raise CommandError("--tables must be at least 1")
        if options["metrics"] and options["flood"]:
            raise CommandError("--metrics measures a run without --flood")
        if options["bots"] and options["flood"]:
            raise CommandError("--bots measures a run without --flood")
        level = options["bots"]
        if level and settings.CELERY_EMBEDDED_WORKER and not options["server"]:
            raise CommandError("--bots needs Redis (REDIS_URL): the bots' worker is a process of its own")
        with ExitStack() as stack:
            servers = [_parse_server(text) for text in options["server"]]
            self.metrics_token = settings.OPS_METRICS_TOKEN
            if not servers:
                servers = self.start_stack(
                    stack, options["daphnes"], options["workers"], options["metrics"] or bool(level), level
                )
            scraped = servers[0]  # a daphne: nginx answers /ops/metrics with 404
            self.proxied = options["nginx"]
            if self.proxied:
                servers = [self.start_nginx(stack, servers)]
            if options["flood"]:
                report = self.hostile(stack, servers, options)
                self.stdout.write(json.dumps(report) if options["json"] else json.dumps(report, indent=2))
                return
            if level:  # the bots' worker imports and warms up on unmeasured turns
                self.warm_up(servers, tables, options["think"], bots=level)
            self.log(f"Preparing {tables} tables on {len(servers)} server(s)…")
            matches = prepare_tables(tables, servers, proxied=self.proxied, bots=level)
            before = self.scrape_metrics(scraped) if options["metrics"] or level else None
            play = loadclient.Tally()
            try:
                report = asyncio.run(
                    run(
                        matches,
                        servers,
                        duration=options["duration"],
                        echo_duration=options["echo_duration"],
                        think=options["think"],
                        seed=options["seed"],
                        log=self.log,
                        series=options["series"],
                        proxied=self.proxied,
                        play=play,
                    )
                )
            finally:
                resign_running()
            if level:
                assert before is not None
                report.update(bot_report(level, play, before, self.scrape_metrics(scraped), report))
            elif before is not None:
                report["metrics"] = scrape.figures(before, self.scrape_metrics(scraped), play.latencies)
        if options["json"]:
            self.stdout.write(json.dumps(report))
        else:
            for key, value in report.items():
                self.stdout.write(f"{key:>12}: {value}")

    #: The servers this command started (their logs are read for 5xx answers), and how many of
    #: its processes use the database.
    served: list[subprocess.Popen[bytes]]
    processes: int = 0
    #: Whether the clients connect through the private nginx (``--nginx``), and its access log.
    proxied: bool = False
    proxy_log: Path | None

    #: The bearer of ``/ops/metrics`` (empty: none, the endpoint then answers this host alone).
    metrics_token: str = ""

    def log(self, text: str) -> None:
        """Progress on stderr, so ``--json`` output stays one object on stdout."""
        self.stderr.write(text)

    def scrape_metrics(self, server: Server) -> scrape.Samples:
        """The samples of ``server``'s ``/ops/metrics`` (a clear error when it refuses)."""
        try:
            return scrape.fetch(server.host, server.port, self.metrics_token)
        except OSError as error:  # urllib's HTTPError and URLError among them
            raise CommandError(f"could not scrape {server.host}:{server.port}/ops/metrics: {error}") from None

    def warm_up(self, servers: list[Server], tables: int, think: float, bots: str | None = None) -> None:
        """Play ``tables`` tables for ``WARM_UP`` seconds, unmeasured: every process's pool,
        templates and caches (and the bots' worker) are then warm when the measured play starts."""
        self.log(f"Warming up: {tables} tables for {WARM_UP:.0f} s…")
        warm = prepare_tables(tables, servers, proxied=self.proxied, bots=bots)
        asyncio.run(
            run(
                warm,
                servers,
                duration=WARM_UP,
                echo_duration=0,
                think=think,
                seed=0,
                log=self.log,
                proxied=self.proxied,
            )
        )

    def hostile(self, stack: ExitStack, servers: list[Server], options: dict[str, Any]) -> dict[str, Any]:
        """The tables played without a flood, then under each flood asked for, back to back; the
        honest tables' figures per phase, the peak of PostgreSQL connections, the HTTP 500s."""
        tables, size = options["tables"], options["flood_size"]
        token = flood_token()
        sampler = stack.enter_context(ConnectionSampler(database_url()))
        phases: dict[str, dict[str, Any]] = {}
        self.warm_up(servers, tables, options["think"])  # the first phase is not a cold start
        for name in ["none", *options["flood"]]:
            kinds = list(flood.KINDS) if name == "all" else [] if name == "none" else [name]
            self.log(f"Phase {name!r}: preparing {tables} tables…")
            matches = prepare_tables(tables, servers, proxied=self.proxied)
            ids = [m for m, _seats in matches]
            flooding = _flood_start(kinds, servers, token, ids, size, self.proxied) if kinds else None
            sampler.peak = 0
            try:
                report = asyncio.run(
                    run(
                        matches,
                        servers,
                        duration=options["duration"],
                        echo_duration=0,
                        think=options["think"],
                        seed=options["seed"],
                        log=self.log,
                        proxied=self.proxied,
                    )
                )
            finally:
                counts = _flood_stop(flooding) if flooding is not None else None
            phase = {key: report[key] for key in ("moves", "p50_ms", "p99_ms", "errors")}
            phase["pg_peak"], phase["flood"] = sampler.peak, counts
            if name != "none" and phases["none"]["p99_ms"]:
                phase["p99_ratio"] = round(phase["p99_ms"] / phases["none"]["p99_ms"], 2)
            phases[name] = phase
            self.log(f"Phase {name!r}: {json.dumps(phase)}")
        resign_running()
        statuses = _logged_statuses(self.served)
        proxy = _proxy_statuses(self.proxy_log)
        floods_500 = sum(
            int((p["flood"] or {}).get(kind, {}).get("500", 0))
            for p in phases.values()
            for kind in flood.KINDS
        )
        pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
        return {
            "tables": tables,
            "phases": phases,
            "errors": sum(p["errors"] for p in phases.values()),
            "pg_peak": max(p["pg_peak"] for p in phases.values()),
            # Every process started here and this one, each with its pool (None: no pool, no ceiling).
            "pg_ceiling": (self.processes + 1) * pool["max_size"] if pool and self.processes else None,
            "http_500": floods_500 + statuses.get(500, 0),
            "server_5xx": {str(code): count for code, count in sorted(statuses.items()) if code >= 500},
            "nginx": self.proxied,
            "proxy_5xx": {str(code): count for code, count in sorted(proxy.items()) if code >= 500},
        }

    def start_stack(
        self,
        stack: ExitStack,
        daphnes: int,
        workers: int,
        metrics: bool = False,
        bot_level: str | None = None,
    ) -> list[Server]:
        """Start the site on free ports (stopped when ``stack`` closes), trusting one proxy's
        ``X-Forwarded-For``: nginx's with ``--nginx``, else the scripted players', who send their
        addresses as a proxy would (without it every player is 127.0.0.1, and from about 30 tables
        on the per-address socket limits refuse them); ``metrics``: scraped (``--metrics``);
        ``bot_level``: bot tables (``--bots``), played by a worker of their own on the ``bots``
        queue, one process per core, as docs/production.md runs it."""
        env = child_env()
        env["DJANGO_TRUSTED_PROXIES"] = "1"
        if bot_level:
            env["GAMES_BOT_DELAY"] = "0,0"
        if metrics:  # every process of the stack sums into one folder, read by a daphne with the token
            if "PROMETHEUS_MULTIPROC_DIR" not in env:
                folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="loadtest-metrics-"))
                env["PROMETHEUS_MULTIPROC_DIR"] = folder
            self.metrics_token = env.setdefault("OPS_METRICS_TOKEN", secrets.token_urlsafe(24))
        if settings.CELERY_EMBEDDED_WORKER:
            commands = [[sys.executable, "manage.py", "serve", "--port", "{port}"]]
            workers = 0
        else:
            daphne = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", "{port}"]
            commands = [[*daphne, "durak_site.asgi:application"] for _ in range(max(1, daphnes))]
        servers = []
        for command in commands:
            port = _free_port()
            process = _spawn([part.replace("{port}", str(port)) for part in command], env)
            stack.callback(_stop, process)
            _wait_for_port(port, process)
            servers.append(Server("127.0.0.1", port))
            self.served.append(process)
        self.processes = len(servers) + workers
        for number in range(workers):
            worker = [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "durak_site",
                "worker",
                "--concurrency",
                "1",
                "--loglevel",
                "WARNING",
                "--hostname",
                f"loadtest{number}-{os.getpid()}@%h",
                *(["-Q", "celery,reviews"] if bot_level else []),
            ]
            stack.callback(_stop, _spawn(worker, env))
        if bot_level and workers:
            bot_worker = [sys.executable, "-m", "celery", "-A", "durak_site", "worker", "-Q", "bots"]
            bot_worker += ["--concurrency", str(os.cpu_count() or 1), "--loglevel", "WARNING"]
            stack.callback(_stop, _spawn([*bot_worker, "--hostname", f"loadtest-bots-{os.getpid()}@%h"], env))
            self.processes += os.cpu_count() or 1
        if workers:
            schedule = stack.enter_context(tempfile.TemporaryDirectory())
            beat = [sys.executable, "-m", "celery", "-A", "durak_site", "beat", "--loglevel", "WARNING"]
            stack.callback(_stop, _spawn([*beat, "--schedule", f"{schedule}/beat"], env))
        self.log(f"Started {len(servers)} server(s), {workers} Celery worker(s) and {min(workers, 1)} beat.")
        return servers

    def start_nginx(self, stack: ExitStack, servers: list[Server]) -> Server:
        """A private nginx in front of ``servers`` (stopped when ``stack`` closes)."""
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(binary).exists():
            raise CommandError("--nginx needs nginx (Debian: apt-get install nginx-light)")
        prefix = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loadtest-nginx-")))
        port = _free_port()
        upstreams = "\n".join(f"        server {s.host}:{s.port} max_fails=0;" for s in servers)
        config = (
            NGINX_TEMPLATE.read_text()
            .replace("@USER@", "user root;" if os.geteuid() == 0 else "")  # nobody could not write here
            .replace("@PREFIX@", str(prefix))
            .replace("@UPSTREAMS@", upstreams)
            .replace("@PORT@", str(port))
        )
        (prefix / "nginx.conf").write_text(config)
        command = [
            binary,
            "-p",
            str(prefix),
            "-e",
            str(prefix / "error.log"),
            "-c",
            str(prefix / "nginx.conf"),
        ]
        process = _spawn(command, dict(os.environ))
        stack.callback(_stop, process)
        _wait_for_port(port, process)
        self.proxy_log = prefix / "access.log"
        self.log(f"Started nginx on port {port} in front of {len(servers)} server(s).")
        return Server("127.0.0.1", port)


#: The private nginx of ``--nginx``: docs/production.md's block in plain HTTP (@NAME@ filled in).
NGINX_TEMPLATE = Path(__file__).resolve().parents[2] / "loadtest_nginx.conf"


def child_env() -> dict[str, str]:
    """The environment of a started server: this process's database and Redis, spelled out.

    The database is the one this command writes to (under pytest, the test database), and the
    Redis URL the settings resolved; pytest's variables go, so the child does not map them again.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["DJANGO_SETTINGS_MODULE"] = "durak_site.settings"
    # As in production: each process's bounded pool of connections (unless a CONN_MAX_AGE was
    # asked for, which works only without it), and no DEBUG (which logs every query).
    env.setdefault("DATABASE_POOL_MAX_SIZE", "0" if env.get("DATABASE_CONN_MAX_AGE") else "10")
    env.setdefault("DJANGO_DEBUG", "0")
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(db["NAME"])
    else:
        env["DATABASE_URL"] = database_url()
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    return env


def database_url() -> str:
    """The URL of the PostgreSQL database this process uses (under pytest, the test database)."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{auth}@{host}/{db['NAME']}"


# --- preparing players and tables (sync, before the run) ---------------------------------------


def login_cookie(user: User) -> str:
    """A session cookie for ``user``: the session ``django.contrib.auth.login`` would store."""
    engine = import_module(settings.SESSION_ENGINE)
    session = engine.SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def load_users(count: int) -> list[User]:
    """``count`` load-test accounts (made once, reused by later runs)."""
    names = [f"{USER_PREFIX}{n:04d}" for n in range(1, count + 1)]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    User.objects.bulk_create(
        # bulk_create skips User.save, which stores the skeletons: set them here.
        User(
            username=name,
            email=f"{name}@loadtest.invalid",
            display_name=name,
            display_name_key=skeleton(name),
            display_name_capitals_key=capitals_key(name),
            password="!",
        )
        for name in names
        if name not in existing
    )
    by_name = {user.username: user for user in User.objects.filter(username__in=names)}
    return [by_name[name] for name in names]


def prepare_tables(
    count: int, servers: list[Server], *, proxied: bool = False, bots: str | None = None
) -> list[tuple[int, list[loadclient.Seat]]]:
    """Deal ``count`` two-player matches; each seat gets a cookie, a server (round robin) and an
    address of its own: its sockets' source through a proxy here (``proxied``), else a header.
    With ``bots`` (a level), the second seat of each table is a bot of that level."""
    resign_running()
    users = load_users(2 * count)
    prepared = []
    for number in range(count):
        first, second = users[2 * number], users[2 * number + 1]
        if bots:
            table = quick.bot_game_start(user=first, rules=Rules(), level=bots)
            players: tuple[User, ...] = (first,)
        else:
            table = services.table_create(creator=first, rules=Rules(), turn_seconds=TURN_SECONDS)
            services.table_join(table_id=table.pk, user=second)
            players = (first, second)
        match = selectors.table_current_match(table_id=table.pk)
        assert match is not None
        seats = [
            loadclient.Seat(
                login_cookie(user),
                servers[(2 * number + k) % len(servers)].host,
                servers[(2 * number + k) % len(servers)].port,
                "" if proxied else player_address(2 * number + k),
                player_source(2 * number + k) if proxied else "",
            )
            for k, user in enumerate(players)
        ]
        prepared.append((match.pk, seats))
    return prepared


def player_address(number: int) -> str:
    """The address of the ``number``-th scripted player, one of its own (``10.x.y.z``)."""
    return f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"


def player_source(number: int) -> str:
    """The loopback address the ``number``-th client of ``--nginx`` connects from: ``127.0.0.2``
    and on (``127.0.0.1`` is the flood's; on ``lo`` every address of ``127.0.0.0/8`` works).

    >>> player_source(0), player_source(254)
    ('127.0.0.2', '127.0.1.0')
    """
    value = number + 2
    return f"127.{value >> 16 & 255}.{value >> 8 & 255}.{value & 255}"


def next_match(match_id: int) -> int | None:
    """Both players agree to play again; the id of the new match. Runs in a thread of its own,
    which gives its connection back after (to the pool, when there is one)."""
    close_old_connections()
    try:
        loaded = selectors.match_load(match_id=match_id, moves_after=None)
        if loaded is None:
            return None
        new = None
        for player in loaded.players:
            try:
                new = services.play_again(match_id=match_id, user=player.user) or new
            except services.GameError:
                return None
        return new.pk if new else None
    finally:
        close_old_connections()


def resign_running() -> int:
    """Resign every load-test match still running (the first seat resigns; that ends a
    two-player match), so their deadlines stop firing."""
    running = Match.objects.filter(
        status=Match.Status.ACTIVE, players__user__username__startswith=USER_PREFIX
    )
    count = 0
    for match in running.distinct():
        player = match.players.select_related("user").order_by("seat").first()
        if player is None:
            continue
        try:
            services.match_resign(match_id=match.pk, user=player.user)
            count += 1
        except services.GameError:
            continue
    return count


# --- the run ------------------------------------------------------------------------------------


async def run(
    matches: list[tuple[int, list[loadclient.Seat]]],
    servers: list[Server],
    *,
    duration: float,
    echo_duration: float,
    think: float,
    seed: int,
    log: Any,
    series: Path | None = None,
    proxied: bool = False,
    play: loadclient.Tally | None = None,
) -> dict[str, Any]:
    """The echo floor with one socket per table, then the tables' play; the report (and each
    move's latency in ``series``, when given). ``proxied``: the echo sockets, too, each come from
    an address of their own (after the players'). ``play``: the tally the players fill, for the
    caller to read after."""

    def source(number: int) -> str:
        return player_source(2 * len(matches) + number) if proxied else ""

    rng = random.Random(seed)
    echo = loadclient.Tally()
    if echo_duration > 0:
        log(f"Echo floor: {len(matches)} sockets for {echo_duration:.0f} s…")
        until = time.monotonic() + echo_duration
        await asyncio.gather(
            *(
                loadclient.echo_socket(
                    servers[i % len(servers)].host,
                    servers[i % len(servers)].port,
                    until=until,
                    think=think,
                    tally=echo,
                    rng=random.Random(rng.random()),
                    source=source(i),
                )
                for i in range(len(matches))
            )
        )
    log(f"Play: connecting {len(matches)} tables…")
    play = play if play is not None else loadclient.Tally()
    clock = loadclient.Clock(duration)
    waiting = len(matches)

    def ready() -> None:
        nonlocal waiting
        waiting -= 1
        if not waiting:
            log(f"Play: {len(matches)} tables for {duration:.0f} s…")
            clock.start()

    ramp = max(1.0, len(matches) / CONNECTS_PER_SECOND)

    async def table(match_id: int, seats: list[loadclient.Seat], table_rng: random.Random) -> None:
        await asyncio.sleep(table_rng.uniform(0, ramp))  # connect without a thundering herd
        await loadclient.play_table(
            match_id,
            seats,
            clock=clock,
            ready=ready,
            think=think,
            tally=play,
            next_match=lambda done: asyncio.to_thread(next_match, done),
            rng=table_rng,
        )

    loaded = loadclient.Tally()

    async def loaded_echo(number: int, probe_rng: random.Random) -> None:
        await clock.go.wait()  # the same echo, while the tables play
        server = servers[number % len(servers)]
        await loadclient.echo_socket(
            server.host,
            server.port,
            until=clock.until,
            think=think,
            tally=loaded,
            rng=probe_rng,
            source=source(number),
        )

    probes = max(2, len(matches) // LOADED_ECHO_TABLES)
    await asyncio.gather(
        *(table(m, s, random.Random(rng.random())) for m, s in matches),
        *(loaded_echo(n, random.Random(rng.random())) for n in range(probes)),
    )
    started = clock.until - duration
    elapsed = max(time.monotonic() - started, 1e-9)
    if series is not None:
        _write_series(series, play, started)
    errors = echo.errors + play.errors + loaded.errors
    for kind, count in Counter(_kind(error) for error in errors).most_common():
        log(f"{count:>6} × {kind}")
    log(f"{play.matches} matches finished.")
    log(
        f"Echo while playing ({probes} sockets): p50 {_ms(loadclient.percentile(loaded.latencies, 0.5))} ms, "
        f"p99 {_ms(loadclient.percentile(loaded.latencies, 0.99))} ms."
    )
    return {
        "tables": len(matches),
        "moves": play.moves,
        "moves_per_s": round(play.moves / elapsed, 1),
        "p50_ms": _ms(loadclient.percentile(play.latencies, 0.50)),
        "p95_ms": _ms(loadclient.percentile(play.latencies, 0.95)),
        "p99_ms": _ms(loadclient.percentile(play.latencies, 0.99)),
        "echo_p99_ms": _ms(loadclient.percentile(echo.latencies, 0.99)),
        "errors": len(errors),
    }


def bot_report(
    level: str, play: loadclient.Tally, before: scrape.Samples, after: scrape.Samples, report: dict[str, Any]
) -> dict[str, Any]:
    """``--bots``' figures: the bots' moves per second (as the players saw them), a bot turn's
    latency from the frame that hands it the turn to the frame that shows its move, and what a
    searched decision cost the server; ``within_think_p99`` says whether the p99 stays within the
    level's think wait plus half a second."""
    searched = scrape.bot_figures(before, after, level)
    seconds = report["moves"] / report["moves_per_s"] if report["moves_per_s"] else 0.0
    p99 = loadclient.percentile(play.bot_turns, 0.99)
    return {
        "bot_level": level,
        "bot_moves_per_s": round(len(play.bot_turns) / seconds, 1) if seconds else 0.0,
        "bot_turn_p50_ms": _ms(loadclient.percentile(play.bot_turns, 0.50)),
        "bot_turn_p99_ms": _ms(p99),
        "bot_think_ms": _ms(bots.THINK_SECONDS[level]),
        "within_think_p99": bool(play.bot_turns) and p99 <= bots.THINK_SECONDS[level] + 0.5,
        "bot_searched": searched["searched"],
        "bot_cpu_ms": searched["cpu_ms"],
        "bot_iterations": searched["iterations"],
    }


def _write_series(path: Path, tally: loadclient.Tally, started: float) -> None:
    """Each move of ``tally`` as a CSV row, in the order they were sent: seconds after
    ``started`` (the play's start) and the latency in milliseconds."""
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["t_s", "latency_ms"])
        for sent, latency in sorted(zip(tally.sent, tally.latencies, strict=True)):
            writer.writerow([f"{sent - started:.3f}", f"{latency * 1000:.1f}"])


def _kind(error: str) -> str:
    """An error without its numbers and quoted actions, to count errors by kind."""
    return re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'…'", error))


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


# --- the hostile client (--flood) ---------------------------------------------------------------

#: Seconds the tables play, unmeasured, before the hostile run's first phase: each process's
#: pool, templates and caches are then warm in every phase alike.
WARM_UP = 3.0
#: The bot account whose token floods the event stream.
FLOOD_BOT = f"{USER_PREFIX}flood"
#: Niceness of the flooding process: on one machine its CPU would be the servers' own, which an
#: attacker's laptop elsewhere does not take.
FLOOD_NICENESS = 10


def flood_token() -> str:
    """A fresh token of the flooding bot account (made once; its older tokens revoked)."""
    user = User.objects.filter(username=FLOOD_BOT).first()
    if user is None:
        user = User.objects.create_user(
            username=FLOOD_BOT, email=f"{FLOOD_BOT}@loadtest.invalid", display_name=FLOOD_BOT
        )
    if not user.is_program:
        botapi.account_upgrade(user)
    for token in ApiToken.objects.filter(user=user, revoked_at=None):
        botapi.token_revoke(user, token.pk)
    _token, raw = botapi.token_create(user, "flood")
    return raw


class ConnectionSampler:
    """The peak of the database's sessions (but its own), sampled ten times a second in a thread."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.peak = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> ConnectionSampler:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)

    def _sample(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as db:
            while not self.stopped.wait(0.1):
                row = db.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ).fetchone()
                self.peak = max(self.peak, int(row[0]) if row else 0)


def _flood_start(
    kinds: list[str], servers: list[Server], token: str, match_ids: list[int], size: int, proxied: bool
) -> subprocess.Popen[bytes]:
    """``tools.flood`` in a process of its own, flooding until ``_flood_stop`` (``proxied``: from
    ``127.0.0.1`` through the private nginx, sending no ``X-Forwarded-For``)."""
    command = [
        sys.executable,
        "-m",
        "tools.flood",
        "--kinds",
        ",".join(kinds),
        "--host",
        servers[0].host,
        "--ports",
        ",".join(str(server.port) for server in servers),
        "--size",
        str(size),
        "--token",
        token,
        "--matches",
        ",".join(str(match_id) for match_id in match_ids),
        *(["--address", ""] if proxied else []),
    ]
    return subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, process_group=0, preexec_fn=lambda: os.nice(FLOOD_NICENESS)
    )


def _flood_stop(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    """Stop the flood; its counts by kind and outcome."""
    process.send_signal(signal.SIGTERM)
    try:
        out, _err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate(timeout=10)
        raise CommandError("the flood did not stop") from None
    if process.returncode:
        raise CommandError(f"the flood failed ({process.returncode})")
    counts: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    return counts


#: A status in daphne's access log: ``host - - [date] "GET /path" 200 1234``.
_LOGGED_STATUS = re.compile(rb'\] "[A-Z]+ [^"]*" (\d{3}) ')


def _logged_statuses(processes: list[subprocess.Popen[bytes]]) -> Counter[int]:
    """The HTTP statuses the servers logged, by code."""
    found: Counter[int] = Counter()
    for process in processes:
        if process.stdout is not None:
            process.stdout.seek(0)
            found.update(int(code) for code in _LOGGED_STATUS.findall(process.stdout.read()))
    return found


def _proxy_statuses(path: Path | None) -> Counter[int]:
    """The HTTP statuses nginx logged (its ``combined`` format: ``… "GET /path HTTP/1.1" 200 …``)."""
    if path is None or not path.exists():
        return Counter()
    return Counter(int(code) for code in _LOGGED_STATUS.findall(path.read_bytes()))


# --- processes ----------------------------------------------------------------------------------


def _parse_server(text: str) -> Server:
    host, _sep, port = text.rpartition(":")
    if not host or not port.isascii() or not port.isdigit():
        raise CommandError(f"--server wants HOST:PORT, not {text!r}")
    return Server(host, int(port))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _spawn(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    """Start ``command`` with its output in a temporary log file (a pipe nobody reads would
    fill up and stall the server under load)."""
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the process by _stop)
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    process.stdout = log  # read back by _wait_for_port when the process dies early
    return process


def _wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = b""
            if process.stdout is not None:
                process.stdout.seek(0)
                output = process.stdout.read()
            raise CommandError(f"the server exited early:\n{output.decode(errors='replace')[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise CommandError(f"nothing listens on port {port} after {timeout:.0f} s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
    if process.stdout is not None:
        process.stdout.close()
