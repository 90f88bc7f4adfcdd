"""The example client (``examples/random_bot.py``) plays a whole match against the club's easy
bot on the real services: daphne and a Celery worker on PostgreSQL and Redis, the client reading
the event and game streams over HTTP and sending its moves with its token."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from botapi import services
from games.models import Match, Move
from tests.faults.stack import ROOT, Stack
from tests.faults.support import human

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


def test_the_example_client_plays_a_whole_match_against_a_built_in_bot(stack: Stack) -> None:
    port = stack.daphne("daphne")
    stack.worker("worker")
    robot = human("robo")
    services.account_upgrade(robot)
    _token, raw = services.token_create(robot, "example")
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "random_bot.py"),
            "--site",
            f"http://127.0.0.1:{port}",
            "--token",
            raw,
            "--challenge-ai",
            "easy",
            "--games",
            "1",
            "--seed",
            "7",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr + stack.log("daphne")[-3000:]
    reported = json.loads(done.stdout.strip().splitlines()[-1])
    match = Match.objects.get(pk=reported["game"])
    assert match.status == Match.Status.FINISHED and reported["result"] == match.result
    seat = match.players.get(user=robot).seat
    moves = Move.objects.filter(match=match)
    assert moves.filter(seat=seat, by=Move.By.PLAYER).exists(), "the program played its own seat"
    assert moves.filter(by=Move.By.BOT).exists(), "the club's bot played in the worker"
    assert not moves.filter(seat=seat, by=Move.By.AUTOPILOT).exists(), "the program was never timed out"
