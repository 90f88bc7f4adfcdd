"""The settings module in each mode, imported in a fresh interpreter with a controlled environment."""

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from .helpers import clean_env, manage, run_python

PROBE = """
import json, django
django.setup()
from django.conf import settings as s
db = s.DATABASES["default"]
layer = s.CHANNEL_LAYERS["default"]
print(json.dumps({
    "debug": s.DEBUG,
    "db_engine": db["ENGINE"],
    "db_options": db.get("OPTIONS", {}),
    "layer": layer["BACKEND"],
    "layer_config": layer.get("CONFIG", {}),
    "cache": s.CACHES["default"]["BACKEND"],
    "broker": s.CELERY_BROKER_URL,
    "transport": s.CELERY_BROKER_TRANSPORT_OPTIONS,
    "embedded": s.CELERY_EMBEDDED_WORKER,
    "email": s.MAILERS["default"]["BACKEND"],
    "session_secure": s.SESSION_COOKIE_SECURE,
    "csrf_secure": s.CSRF_COOKIE_SECURE,
    "hsts": s.SECURE_HSTS_SECONDS,
    "static": s.STORAGES["staticfiles"]["BACKEND"],
    "log_format": s.LOGGING["handlers"]["console"]["formatter"],
    "csp": bool(s.SECURE_CSP),
    "games": [s.GAMES_BOT_DELAY, s.GAMES_SOCKET_RATE, s.GAMES_USER_RATE],
}, default=repr))
"""

PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "DJANGO_SECRET_KEY": "test-only-" + "x" * 60,
    "DJANGO_ALLOWED_HOSTS": "durak.example",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://durak.example",
    "DJANGO_TRUSTED_PROXIES": "1",  # behind docs/production.md's nginx
    "EMAIL_HOST": "smtp.durak.example",
}


def probe(**env: str) -> dict[str, Any]:
    result = run_python(PROBE, clean_env(**env))
    assert result.returncode == 0, result.stderr
    values: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return values


def test_the_live_play_limits_have_defaults_and_come_from_the_environment() -> None:
    assert probe()["games"] == [[0.6, 1.2], [5.0, 10], [240, 60]]
    tuned = probe(GAMES_BOT_DELAY="0,0", GAMES_SOCKET_RATE="20, 40", GAMES_USER_RATE="1000,60")
    assert tuned["games"] == [[0.0, 0.0], [20.0, 40], [1000, 60]]


def test_embedded_defaults_need_no_service() -> None:
    s = probe()
    assert s["debug"] is True
    assert s["db_engine"] == "django.db.backends.sqlite3"
    assert s["db_options"] == {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    assert s["layer"] == "durak_site.channel_layers.ThreadSafeInMemoryChannelLayer"
    assert s["cache"].endswith("LocMemCache")
    assert s["broker"] == "memory://localhost/"
    assert s["transport"] == {"polling_interval": 0.02}
    assert s["embedded"] is True
    assert s["email"].endswith("console.EmailBackend")
    assert s["csp"] is True


def test_embedded_sqlite_really_runs_in_wal_mode(tmp_path: Path) -> None:
    database = tmp_path / "wal.sqlite3"
    code = (
        "import django; django.setup()\n"
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])\n"
    )
    result = run_python(code, clean_env(SQLITE_PATH=str(database)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_services_mode_uses_postgres_and_redis() -> None:
    s = probe(
        DATABASE_URL="postgres://club:secret@db.example:5432/durak",
        REDIS_URL="redis://cache.example:6379/0",
    )
    assert s["db_engine"] == "durak_site.postgresql"
    assert s["layer"] == "durak_site.channel_layers.ResyncingPubSubChannelLayer"
    (host,) = s["layer_config"]["hosts"]
    assert host["address"] == "redis://cache.example:6379/0"
    assert s["layer_config"]["prefix"] == "durak.0."
    assert s["cache"].endswith("RedisCache")
    assert s["broker"] == "redis://cache.example:6379/0"
    assert s["embedded"] is False


@pytest.mark.parametrize(
    ("url", "prefix"),
    [
        ("redis://r.example:6379/3", "durak.3."),
        ("redis://r.example:6379/?db=4", "durak.4."),
        ("redis://r.example:6379", "durak.0."),
    ],
)
def test_the_pubsub_prefix_follows_the_redis_database(url: str, prefix: str) -> None:
    """Pub/sub ignores database numbers: two sites on databases 3 and 4 of one Redis must not hear
    each other's broadcasts, as they never shared cache keys or Celery queues."""
    assert probe(REDIS_URL=url)["layer_config"]["prefix"] == prefix


def test_production_mode_is_locked_down() -> None:
    s = probe(**PRODUCTION_ENV)
    assert s["debug"] is False
    assert s["session_secure"] is True
    assert s["csrf_secure"] is True
    assert s["hsts"] >= 31_536_000
    assert s["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert s["log_format"] == "json"


def test_production_passes_check_deploy_without_warnings() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=clean_env(**PRODUCTION_ENV))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_without_its_proxy_count_fails_check_deploy() -> None:
    """Production trusts the proxy's X-Forwarded-Proto; with no proxy counted for the client's
    address, every client would share the proxy's (``durak_site.checks``)."""
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "DJANGO_TRUSTED_PROXIES"}
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=clean_env(**env))
    assert result.returncode != 0
    assert "durak_site.W001" in result.stdout + result.stderr


@pytest.mark.parametrize("missing", ["DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"])
def test_production_refuses_to_start_without(missing: str) -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != missing}
    result = run_python("import django; django.setup()", clean_env(**env))
    assert result.returncode != 0
    assert missing in result.stderr


def test_smtp_mail_when_a_host_is_set() -> None:
    assert probe(EMAIL_HOST="smtp.example")["email"].endswith("smtp.EmailBackend")


def test_json_log_lines_carry_extra_fields() -> None:
    import logging

    from durak_site.logging import JsonFormatter

    record = logging.makeLogRecord(
        {"msg": "match %s", "args": (7,), "levelname": "INFO", "name": "games", "match_id": 7}
    )
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "match 7"
    assert line["match_id"] == 7
    assert line["level"] == "INFO"
