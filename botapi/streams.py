"""The two NDJSON streams, one JSON object per line (Lichess's format): a line is flushed as soon
as it is written, and an empty line every ``HEARTBEAT`` seconds keeps proxies and clients from
taking a quiet game for a dead connection.

The game stream waits on the match's channel group (the same ``match.changed`` notice the
sockets get, which carries no card) and reads the committed match for this seat on each one; it
also looks again every ``HEARTBEAT`` seconds, so a notice lost between processes only delays it.
The event stream looks for the account's matches and challenges once a second.

Every read goes through ``database_sync_to_async``, which gives the connection back after it
(to the pool, or closed: ``durak_site.settings``), so an idle stream holds no database
connection; how many streams may be open is ``botapi.limits``'.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from accounts.models import User
from play import broadcast

from .payloads import active_match_ids, challenges_to, game_payload

HEARTBEAT = 7.0
EVENT_POLL = 1.0


def line(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode() + b"\n"


async def game_lines(*, match_id: int, user: User) -> AsyncIterator[bytes]:
    """``gameFull``, then ``gameState`` at each new version, until the match is over. The group is
    joined before the first read, so no change falls between the two."""
    layer = get_channel_layer()
    group = broadcast.match_group(match_id)
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        payload = await database_sync_to_async(game_payload)(match_id=match_id, user=user, kind="gameFull")
        if payload is None:
            return
        yield line(payload)
        version = payload["version"]
        while payload["status"] == "active":
            try:
                await asyncio.wait_for(layer.receive(channel), timeout=HEARTBEAT)
            except TimeoutError:
                yield b"\n"
            payload = await database_sync_to_async(game_payload)(match_id=match_id, user=user)
            if payload is None:
                return
            if payload["version"] != version or payload["status"] != "active":
                version = payload["version"]
                yield line(payload)
    finally:
        await layer.group_discard(group, channel)


async def event_lines(*, user: User) -> AsyncIterator[bytes]:
    """``gameStart`` for each match of the account in play (those already running first) and
    ``gameFinish`` when one is over; ``challenge`` for each challenge waiting for its answer and
    ``challengeGone`` when it was answered, withdrawn or expired. The stream lasts as long as the
    client keeps it open."""
    games: set[int] = set()
    challenges: set[int] = set()
    quiet = 0.0
    while True:
        now, waiting = await database_sync_to_async(_event_state)(user)
        sent = False
        for challenge_id in sorted(waiting.keys() - challenges):
            yield line({"type": "challenge", "challenge": waiting[challenge_id]})
            sent = True
        for challenge_id in sorted(challenges - waiting.keys()):
            yield line({"type": "challengeGone", "challenge": {"id": challenge_id}})
            sent = True
        for match_id in sorted(now - games):
            yield line({"type": "gameStart", "game": {"id": match_id}})
            sent = True
        for match_id in sorted(games - now):
            yield line({"type": "gameFinish", "game": {"id": match_id}})
            sent = True
        games, challenges = now, set(waiting)
        quiet = 0.0 if sent else quiet
        await asyncio.sleep(EVENT_POLL)
        quiet += EVENT_POLL
        if quiet >= HEARTBEAT:
            quiet = 0.0
            yield b"\n"


def _event_state(user: User) -> tuple[set[int], dict[int, dict[str, Any]]]:
    """The account's matches in play and the challenges waiting for its answer (one connection)."""
    return active_match_ids(user), challenges_to(user)
