"""One hostile client against the production settings on PostgreSQL and Redis, behind nginx
with docs/production.md's limits (``manage.py loadtest --flood … --nginx``): while honest
two-player tables play, each flood (Bot API event streams with one token, anonymous websocket
handshakes on public chat sockets, parallel anonymous GETs) and all three at once leave the
honest tables without an error, no answer is a 500 (nginx's or daphne's), and the stack's PostgreSQL
connections stay under the ceiling its pools set, on a private server whose
``max_connections`` is 40. Each honest player comes from a loopback address of its own and the
flood from ``127.0.0.1``, so nginx's per-address limits refuse the flood and only the flood.

The sizes fit CI (two cores, shared with the other tests): 10 tables, floods of 20 connections,
8 s a phase after 3 s of warming up, about 80 s. It prints each phase's honest p50, p99 and the
p99's ratio to the run without a flood, but asserts no bound on them: on two cores shared with
the rest of the suite the flooding client, nginx, the servers and the database share the CPU,
and the ratio follows the machine's load (0.8-2.1× quiet, up to 11× with a load average of 9 from
other work). The target is measured by ``loadtest --flood`` as a benchmark (docs/performance.md,
"Hostile load").
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.faults.stack import RedisServer
from tests.site.helpers import clean_env, manage
from tests.site.test_settings_matrix import PRODUCTION_ENV

from .postgres import PrivatePostgres

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists(),
        reason="nginx is not installed (Debian: apt-get install nginx-light); the run goes through it",
    ),
]

#: The private server's connections, as a small managed PostgreSQL offers.
MAX_CONNECTIONS = 40
#: Each process's pool: 2 daphnes, 1 worker and the load test's own process, 6 each: 24 < 40.
POOL = 6


def test_one_hostile_client_leaves_the_honest_tables_unharmed(tmp_path: Path) -> None:
    postgres, redis = PrivatePostgres(max_connections=MAX_CONNECTIONS), RedisServer(tmp_path)
    try:
        postgres.start()
        redis.start()
        env = clean_env(
            **{
                **PRODUCTION_ENV,
                "DATABASE_URL": postgres.url,
                "REDIS_URL": redis.url,
                "DATABASE_POOL_MAX_SIZE": str(POOL),
                "DJANGO_ALLOWED_HOSTS": "127.0.0.1",  # nginx passes the Host the clients send
                "DJANGO_SECURE_SSL_REDIRECT": "0",  # no TLS in front
                "DJANGO_STATIC_ROOT": str(tmp_path / "static"),
            }
        )
        for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            done = manage(*step, env=env, timeout=300)
            assert done.returncode == 0, done.stderr
        run = manage(
            "loadtest", "--json", "--tables", "10", "--duration", "8", "--think", "0.5",
            "--daphnes", "2", "--workers", "1", "--flood-size", "20", "--nginx",
            "--flood", "streams", "--flood", "handshakes", "--flood", "requests", "--flood", "all",
            env=env, timeout=600,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr[-5000:] + postgres.log()[-2000:]
    finally:
        redis.stop()
        postgres.stop()
    report = json.loads(run.stdout.strip().splitlines()[-1])
    logged = "\n".join(line for line in run.stderr.splitlines() if "×" in line or "Phase" in line)
    phases = report["phases"]
    for name, phase in phases.items():
        print(
            f"{name:>10}: p50 {phase['p50_ms']} ms, p99 {phase['p99_ms']} ms"
            f" (x{phase.get('p99_ratio', 1)}), {phase['moves']} moves, {phase['errors']} errors,"
            f" {phase['pg_peak']} connections; flood {phase['flood']}"
        )
    print(f"peak {report['pg_peak']} connections of a ceiling of {report['pg_ceiling']}")
    assert {name: phase["errors"] for name, phase in phases.items()} == dict.fromkeys(phases, 0), logged
    assert all(phase["moves"] > 0 for phase in phases.values())
    assert report["nginx"] is True
    assert report["http_500"] == 0 and report["server_5xx"] == {} and report["proxy_5xx"] == {}
    assert report["pg_ceiling"] == 4 * POOL < MAX_CONNECTIONS
    assert report["pg_peak"] <= report["pg_ceiling"]
    streams = phases["streams"]["flood"]["streams"]
    assert streams["open_max"] == 1 and streams.get("429", 0) > 0  # one event stream per token
    handshakes = phases["handshakes"]["flood"]["handshakes"]
    assert handshakes.get("429", 0) + handshakes.get("403", 0) > 0  # the address's limits
    assert phases["requests"]["flood"]["requests"].get("429", 0) > 0  # nginx's limit on pages
