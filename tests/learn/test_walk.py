"""Issue #40's four parts walked through a served site, once on the embedded defaults (SQLite, the
in-process Celery worker, no Redis) and once on PostgreSQL and Redis (a database of its own on the
run's PostgreSQL server, a redis-server of its own, a Celery worker process): what works on one
must work on the other.

The walk is a newcomer's, over HTTP as a browser without script sends it (forms, cookies, CSRF):
the home page's lessons, a lesson's answer as a visitor, blind mode chosen, a sign-up that keeps
both, the lesson's end and its practice game at the lesson's table, that game's page in blind
mode, a mined puzzle solved (its rating and the player's move), and the analysis board: a
finished match's step opened, a move played on, each legal move's chance judged by the worker.

The site is set up as a deployment is (``migrate``, ``ensure_bots``), then ``manage.py shell``
plays seeded finished matches (``tests.puzzles.support``) and runs the miner, so the puzzles and
the match to analyse are the site's own.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import psycopg
import pytest

from games.engine import GameState
from tests.faults.stack import RedisServer, wait_for_port
from tests.learn.test_practice import hidden_inputs
from tests.site.helpers import ROOT, clean_env, free_port, stop_group

pytestmark = pytest.mark.slow

#: The site's own settings for the walk: a small search, so an evaluation takes seconds.
SITE_ENV = {"HISTORY_REVIEW_ITERATIONS": "40"}

SETUP = """
import json
from puzzles.models import Puzzle
from puzzles.services import mine_new
from tests.puzzles.support import seeded_matches
from tests.ratings.builders import make_users

matches = seeded_matches(make_users(3, prefix="walk"))
mine_new()
lines = {p.pk: [step["play"] for step in p.steps] for p in Puzzle.objects.all()}
print(json.dumps({"lines": lines, "match": matches[0].pk}))
"""

#: Seat 0 leads against seat 1 with three cards each: a handful of moves, each quick to judge.
POSITION = "podkidnoy trump=6D hands=9S,AC,7H/8C,10D,6H attacker=0"
PASSWORD = "a-long-card-table-password"


@dataclass(frozen=True, slots=True)
class Site:
    url: str
    lines: dict[int, list[str]]
    match: int


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@contextmanager
def process(command: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` in a process group of its own, ended (SIGTERM, then SIGKILL) with the block."""
    with log.open("ab") as out:
        started = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        yield started
    finally:
        stop_group(started)


@contextmanager
def served(env: dict[str, str], folder: Path, *, worker: bool) -> Iterator[Site]:
    """Migrate, set up and serve the site of ``env`` (with a Celery worker process when it has a
    broker: the embedded one runs inside ``serve`` otherwise)."""
    env = {**env, **SITE_ENV}
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "ensure_bots")
    found = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    port = free_port()
    with process(
        [sys.executable, "manage.py", "serve", "--port", str(port)], env, folder / "serve.log"
    ) as web:
        wait_for_port(port, web, timeout=120)
        with celery_worker(env, folder, wanted=worker):
            lines = {int(pk): line for pk, line in found["lines"].items()}
            yield Site(f"http://127.0.0.1:{port}", lines, found["match"])


@contextmanager
def celery_worker(env: dict[str, str], folder: Path, *, wanted: bool) -> Iterator[None]:
    """A Celery worker process for a site with a broker (every queue, one task at a time)."""
    if not wanted:
        yield
        return
    command = [sys.executable, "-m", "celery", "-A", "durak_site", "worker", "--pool", "solo", "-l", "INFO"]
    with process(command, env, folder / "worker.log"):
        yield


@contextmanager
def embedded(folder: Path) -> Iterator[Site]:
    with served(clean_env(SQLITE_PATH=str(folder / "site.sqlite3")), folder, worker=False) as site:
        yield site


@contextmanager
def services(folder: Path) -> Iterator[Site]:
    """A database of the walk's own beside the run's (``DATABASE_URL``'s server), dropped after."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    name = f"{parts.path.strip('/')}_walk_{os.getpid()}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    redis = RedisServer(folder)
    redis.start()
    try:
        env = clean_env(DATABASE_URL=urlunsplit(parts._replace(path=f"/{name}")), REDIS_URL=redis.url)
        with served(env, folder, worker=True) as site:
            yield site
    finally:
        redis.stop()
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


SETUPS = [
    pytest.param(embedded, id="embedded"),
    pytest.param(services, id="postgres-redis", marks=[pytest.mark.postgres, pytest.mark.redis]),
]


class Visitor:
    """A browser without script: cookies kept, redirects followed, the CSRF cookie sent back."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def get(self, path: str, **headers: str) -> tuple[int, str, str]:
        return self._open(urllib.request.Request(self.base + path, headers=headers))

    def post(self, path: str, data: Mapping[str, object], **headers: str) -> tuple[int, str, str]:
        token = self.cookie("csrftoken") or ""
        body = urlencode({**data, "csrfmiddlewaretoken": token}, doseq=True).encode()
        return self._open(urllib.request.Request(self.base + path, data=body, headers=headers))

    def _open(self, request: urllib.request.Request) -> tuple[int, str, str]:
        """The status, the final path (after redirects) and the page's text."""
        try:
            with self.opener.open(request, timeout=60) as response:
                status, url, text = response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            status, url, text = error.code, error.geturl(), error.read().decode()
        return status, urlsplit(url).path, text


@pytest.mark.parametrize("setup", SETUPS)
def test_a_newcomer_walks_the_lessons_puzzles_analysis_and_blind_mode(
    setup: Callable[[Path], AbstractContextManager[Site]], tmp_path: Path
) -> None:
    with setup(tmp_path) as site:
        walk(site)


def walk(site: Site) -> None:
    me = Visitor(site.url)
    status, _, page = me.get("/")
    assert status == 200 and "Learn to play" in page

    # A visitor answers the first lesson's first step, and turns blind mode on.
    assert "Step 1 of 2" in me.get("/learn/trumps/")[2]
    status, _, page = me.post("/learn/trumps/1/", {"kind": "cover", "cards": ["7D"], "target": "AS"})
    assert status == 200 and "Right!" in page
    me.post("/me/blind-mode/", {"on": "1", "next": "/learn/"})
    assert me.cookie("durak_blind") == "1"

    # Signing up keeps both: the lesson opens at its second step, from the account's progress.
    signup = {
        "email": "nina@example.com",
        "display_name": "Nina",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    status, path, _ = me.post("/accounts/signup/", signup)
    assert status == 200 and path != "/accounts/signup/", path
    assert "Step 2 of 2" in me.get("/learn/trumps/")[2]
    status, _, page = me.post("/learn/trumps/2/", {"kind": "cover", "cards": ["10D"], "target": "8D"})
    assert "Lesson finished!" in page

    # Its practice game, against easy bots, whose page is the blind mode's.
    practice = hidden_inputs(page)
    assert practice["variant"] == "podkidnoy" and practice["level"] == "easy"
    status, path, page = me.post("/play/bots/", practice)
    assert status == 200 and re.fullmatch(r"/play/(match|table)/\d+/", path), path
    if path.startswith("/play/table/"):  # the deal waited for this browser's value
        table = path
        path = wait_for(lambda: _match_link(me.get(table)[2]), "the practice game was not dealt")
        page = me.get(path)[2]
    assert 'id="blind-said"' in page and "aria-live" in page and "data-first-hint" not in page

    # A mined puzzle, solved move by move: the first attempt moves the player's puzzle rating.
    status, path, page = me.get("/puzzles/")
    puzzle = int(re.fullmatch(r"/puzzles/(\d+)/", path).group(1))  # type: ignore[union-attr]
    for move in site.lines[puzzle]:
        status, _, page = me.post(f"/puzzles/{puzzle}/move/", {"move": move})
        assert status == 200
    page = html.unescape(page)
    assert "Solved: you are not the fool." in page
    rating = re.search(r"Your puzzle rating: (\d+) \(\+(\d+)\)", page)
    assert rating is not None and int(rating.group(1)) > 1500 and int(rating.group(2)) > 0

    # The analysis board: a finished match's step opened, a move played on, the moves judged.
    status, _, page = me.get(f"/analysis/?match={site.match}&step=4")
    assert status == 200 and 'id="analysis-position"' in page
    status, _, page = me.get("/analysis/?" + urlencode({"position": POSITION, "m": "0:attack 9S"}))
    assert status == 200 and "table=9S" in page
    status, _, page = me.post(
        "/analysis/evaluate/", {"position": POSITION, "seat": "0", "open": "1"}, **{"HX-Request": "true"}
    )
    assert status == 200 and 'data-status="pending"' in page
    url = re.search(r'hx-get="(/analysis/evaluation/\d+/)"', page).group(1)  # type: ignore[union-attr]

    def judged() -> str | None:
        page = me.get(url)[2]
        return page if 'data-status="done"' in page else None

    page = wait_for(judged, "the moves were never judged")
    moves = GameState.from_position(POSITION).legal_actions(0)
    assert len(re.findall(r"<tr data-p=", page)) == len(moves)


def _match_link(page: str) -> str | None:
    found = re.search(r'href="(/play/match/\d+/)"', page)
    return found.group(1) if found else None


def wait_for(probe: Callable[[], str | None], message: str, timeout: float = 120) -> str:
    """What ``probe`` finds, asked every half second (a worker's task, a deal waiting)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.5)
    raise AssertionError(message)
