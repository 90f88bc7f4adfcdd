#!/usr/bin/env python3
"""A bot for the Durak club's Bot API that plays random legal moves (the standard library only).

    DURAK_TOKEN=durak_... python examples/random_bot.py --site http://127.0.0.1:8000
    python examples/random_bot.py --site ... --challenge-ai easy --games 1

It listens to the account's event stream, and plays every game that starts: it reads the game's
stream (its own seat's view after every change) and, whenever the view says it may move, sends one
of the view's legal moves at the version it saw. See /api/ on the site for the whole API.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any


class Client:
    def __init__(self, site: str, token: str) -> None:
        self.site = site.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}"}

    def request(self, method: str, path: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        data = json.dumps(payload).encode() if payload is not None else None
        headers = {**self.headers, "Content-Type": "application/json"} if data is not None else self.headers
        request = urllib.request.Request(self.site + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return dict(json.load(response))
        except urllib.error.HTTPError as error:  # a refusal: {"error": ..., "code": ...}
            return dict(json.load(error))

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The objects of an NDJSON stream; empty lines are the server's heartbeat."""
        request = urllib.request.Request(self.site + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            for raw in response:
                if raw.strip():
                    yield json.loads(raw)


def play(client: Client, game_id: int, rng: random.Random) -> dict[str, Any] | None:
    """Play one game to its end; returns its result."""
    last_sent = -1
    for frame in client.stream(f"/api/bot/game/stream/{game_id}"):
        if frame["status"] != "active":
            return frame.get("result")
        moves = frame["view"]["legal"]
        if moves and frame["version"] != last_sent and not frame["autopilot"]:
            last_sent = frame["version"]
            answer = client.request(
                "POST",
                f"/api/bot/game/{game_id}/move",
                {"action": rng.choice(moves), "version": frame["version"]},
            )
            if "error" in answer and answer.get("code") != "stale":
                print(f"game {game_id}: {answer['error']}", file=sys.stderr)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("DURAK_TOKEN", ""))
    parser.add_argument("--challenge-ai", metavar="LEVEL", help="start a game against the club's bot")
    parser.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    parser.add_argument("--seed", type=int, default=None)
    options = parser.parse_args()
    if not options.token:
        parser.error("give a token with --token or DURAK_TOKEN")
    client = Client(options.site, options.token)
    rng = random.Random(options.seed)
    me = client.request("GET", "/api/account")
    if not me.get("bot"):
        print(
            me.get("error") or "this account is not a bot account: upgrade it on /account/bot/",
            file=sys.stderr,
        )
        return 1
    if options.challenge_ai:
        started = client.request("POST", "/api/challenge/ai", {"level": options.challenge_ai})
        if "error" in started:
            print(started["error"], file=sys.stderr)
            return 1
    finished = 0
    playing: set[int] = set()
    done = threading.Semaphore(0)

    def run(game_id: int) -> None:
        result = play(client, game_id, random.Random(rng.random()))
        print(json.dumps({"game": game_id, "result": result}), flush=True)
        done.release()

    for event in client.stream("/api/stream/event"):
        if event["type"] == "gameStart" and event["game"]["id"] not in playing:
            playing.add(event["game"]["id"])
            threading.Thread(target=run, args=(event["game"]["id"],), daemon=True).start()
        elif event["type"] == "gameFinish":
            done.acquire(timeout=30)
            finished += 1
            if options.games and finished >= options.games:
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
