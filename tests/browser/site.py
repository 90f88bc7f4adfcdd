"""The site the browser tests drive: ``manage.py serve`` in the embedded mode on a fresh SQLite
file, so a browser test needs nothing but Chromium (the embedded Celery worker plays the bots).

One starter for every browser test module: migrate, create the bot accounts, run the module's
own ``setup`` code in ``manage.py shell``, then serve on a free port until the test is done.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.site.helpers import clean_env, free_port, stop

from .chromium import CHROMIUM, ROOT


@dataclass(frozen=True, slots=True)
class Site:
    """A running site: its base URL, and what the setup code printed."""

    url: str
    setup_output: str


#: A browser test's setup deals many tables for one player, and may leave several rated games
#: left too early (a resignation before every player made a few moves): the limits on a player's
#: open tables (``play.services.limits``) and the bar from rated play after three such games
#: (``play.services.playban``), both tested on their own, are not what it measures. (The
#: rated-end test of ``test_entry`` resigns at once in each of its four runs: three would bar the
#: fourth.) Setups that build a rated history between two players in one go would meet the cap on
#: rated games between the same pair (``ratings.farming``), tested on its own too. Every browser
#: of a test comes from 127.0.0.1, so the websocket limits per address
#: (``durak_site.socket_limits``) are roomy too, and so are an organiser's open tournaments
#: (``tournaments.services``), since a layout setup runs one of every kind.
ROOMY = {
    "GAMES_OPEN_TABLES_PER_USER": "100",
    "GAMES_TABLE_CREATE_RATE": "1000,600",
    "GAMES_RATED_QUITS": "1000",
    "RATINGS_PAIR_GAMES": "1000",
    "TOURNAMENTS_OPEN_PER_USER": "100",
    "TOURNAMENTS_CREATE_RATE": "1000,86400",
    "WEBSOCKET_HANDSHAKE_RATE": "1000,1000",
    "WEBSOCKET_OPEN_PER_ADDRESS": "1000",
}


#: Run before every module's setup code, which may call it: the key of a session signed in as
#: ``user``, for the browser's ``sessionid`` cookie (signing in through the form is what
#: ``test_site_e2e`` tests; the others start signed in).
SIGNED_IN_SESSION = """
def signed_in_session(user):
    from importlib import import_module
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key
"""


@contextmanager
def served_site(folder: Path, setup: str, env: dict[str, str] | None = None) -> Iterator[Site]:
    """Serve a fresh site whose database lives in ``folder``, after running ``setup`` in it
    (``env``: settings of the site's own, such as a smaller review search)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    # embedded, not "under pytest"
    env = clean_env(SQLITE_PATH=str(folder / "db.sqlite3"), **{**ROOMY, **(env or {})})
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, cwd=ROOT, check=True, timeout=300)
    subprocess.run([*manage, "ensure_bots"], env=env, cwd=ROOT, check=True, capture_output=True, timeout=120)
    done = subprocess.run(
        [*manage, "shell", "-c", SIGNED_IN_SESSION + setup],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    port = free_port()
    log_path = folder / "serve.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [*manage, "serve", "--port", str(port)], env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60  # a busy CI machine starts Django slowly
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start:\n{log_path.read_text()}") from None
                time.sleep(0.1)
        yield Site(f"http://127.0.0.1:{port}", done.stdout)
    finally:
        stop(process)
