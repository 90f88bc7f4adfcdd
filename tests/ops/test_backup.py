"""``deploy/backup.sh`` and ``deploy/restore.sh`` on a database with live matches, tournaments
(one finished, one running) and chat: the dump restored into a fresh database holds the same
state, every finished match replays exactly to its stored end, and a live match plays on there
with its clock where it was."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from games.models import Match
from play import services
from play.chat import services as chat
from tests.play.services_support import make_user, match_state, play_out, start_match
from tests.site.helpers import clean_env, run_python
from tests.tournaments.support import play_running_games, started_with_player

ROOT = Path(settings.BASE_DIR)

#: Run in a process of the site on the database it is given: what a restore must keep.
STATE = """
import json, django
django.setup()
from play.models import ChatLine
from play import selectors
from games.models import Match
from tournaments.models import Tournament

finished, live = {}, {}
for match in Match.objects.filter(status=Match.Status.FINISHED).order_by("pk"):
    finished[match.pk] = {
        "replays": selectors.match_record(match).replay().to_json() == match.snapshot,
        "snapshot": match.snapshot, "result": match.result, "moves": match.moves.count(),
    }
for match in Match.objects.filter(status=Match.Status.ACTIVE).order_by("pk"):
    live[match.pk] = {"version": match.version, "deadline": match.deadline_at.isoformat(),
                      "snapshot": match.snapshot}
print(json.dumps({
    "finished": finished, "live": live,
    "tournaments": list(Tournament.objects.order_by("pk").values_list("pk", "status")),
    "chat": list(ChatLine.objects.order_by("pk").values_list("pk", "text")),
}))
"""

#: Plays one move of the given live match on the restored database: the site resumes there.
RESUME = """
import django
django.setup()
from accounts.models import User
from play import selectors, services
match = selectors.match_load(match_id=MATCH_ID, moves_after=None)
seat = min(match.state.awaiting())
player = next(p for p in match.players if p.seat == seat)
after = services.action_apply(match_id=match.match.pk, user=player.user,
    action_text=str(match.state.default_action(seat)), expected_version=match.match.version)
print(after.match.version, services.matches_timeout_overdue())
"""


def _url(name: str) -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def _state(url: str) -> dict[str, Any]:
    done = run_python(STATE, clean_env(DATABASE_URL=url), timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture
def fresh_database() -> Iterator[str]:
    name = f"{connection.settings_dict['NAME']}_restored"
    admin = _url("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _url(name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_backup_restored_into_a_fresh_database_replays_and_plays_on(
    tmp_path: Path, fresh_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "backup-seed")
    alice, bob, carol, dave = (make_user(name) for name in ("alice", "bob", "carol", "dave"))
    play_out(start_match(humans=[alice, bob]))  # a finished match
    live = start_match(humans=[carol, dave], turn_seconds=600)
    for _ in range(3):
        live.refresh_from_db()
        state = match_state(live)
        seat = min(state.awaiting())
        mover = carol if seat == 0 else dave
        services.action_apply(
            match_id=live.pk,
            user=mover,
            action_text=str(state.default_action(seat)),
            expected_version=live.version,
        )
    for talker in (carol, dave):
        talker.chat_free_text = True
        talker.save(update_fields=["chat_free_text"])
    chat.chat_say(match_id=live.pk, user=carol, text="good luck")
    chat.chat_say(match_id=live.pk, user=dave, text="you too")
    organiser = make_user("organiser")
    finished_cup, _ = started_with_player(organiser, 1, "erin")
    play_running_games(finished_cup)
    started_with_player(organiser, 3, "frank")  # a running one, its games in play

    original_url = _url(str(connection.settings_dict["NAME"]))
    backup = subprocess.run(
        [str(ROOT / "deploy" / "backup.sh")],
        env=clean_env(DATABASE_URL=original_url, BACKUP_DIR=str(tmp_path / "backups")),
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert backup.returncode == 0, backup.stderr
    dump = Path(backup.stdout.strip())
    assert dump.parent == tmp_path / "backups" and dump.suffix == ".dump" and dump.stat().st_size > 0
    restore = subprocess.run(
        [str(ROOT / "deploy" / "restore.sh"), str(dump), fresh_database],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert restore.returncode == 0, restore.stderr
    again = subprocess.run(
        [str(ROOT / "deploy" / "restore.sh"), str(dump), fresh_database],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert again.returncode == 3  # a database that is not empty is refused

    before, after = _state(original_url), _state(fresh_database)
    assert after == before
    assert len(after["finished"]) >= 2 and all(match["replays"] for match in after["finished"].values())
    assert str(live.pk) in after["live"] and len(after["live"]) >= 2
    assert len(after["tournaments"]) == 2 and len(after["chat"]) == 2

    live.refresh_from_db()
    resumed = run_python(
        RESUME.replace("MATCH_ID", str(live.pk)), clean_env(DATABASE_URL=fresh_database), timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    version, _timeouts = resumed.stdout.split()
    assert int(version) == live.version + 1
    assert Match.objects.get(pk=live.pk).version == live.version  # the original is untouched
