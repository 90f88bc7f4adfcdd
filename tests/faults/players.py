"""Scripted players that survive faults: one coroutine per seat, each with its own socket, which
reconnects (to the next server in its list) whenever the socket drops, and re-reads the full view
the server sends on every (re)connect before acting again. Like a browser tab with the htmx ws
extension, it only acts on what its own socket showed."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from tools.loadclient import MatchFrame, WebSocket, WebSocketClosed, read_frame

DROPPED = (OSError, WebSocketClosed, asyncio.IncompleteReadError, TimeoutError)


@dataclass
class Player:
    """One seat's client and what it went through."""

    name: str
    cookie: str
    ports: list[int]
    think: float = 0.05
    #: Stop moving after this many of its own moves until ``idled`` is set (by the test, once a
    #: deadline played for it), however often the others move meanwhile: skipping a single turn
    #: lets a timer run out only when nobody else moves before it does.
    idle_after: int | None = None
    sent: list[tuple[int, str]] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    reconnects: int = 0
    final: MatchFrame | None = None
    problems: list[str] = field(default_factory=list)
    idled: bool = False

    @property
    def version(self) -> int:
        return self.versions[-1] if self.versions else -1


async def play(player: Player, match_id: int, *, deadline: float, rng: random.Random) -> None:
    """Play ``player``'s seat until the match ends or the monotonic ``deadline`` passes."""
    attempt = 0
    while time.monotonic() < deadline and player.final is None:
        port = player.ports[attempt % len(player.ports)]
        try:
            ws = await WebSocket.connect("127.0.0.1", port, f"/ws/match/{match_id}/", cookie=player.cookie)
        except DROPPED:
            attempt += 1
            await asyncio.sleep(0.3)
            continue
        try:
            await _session(player, ws, deadline, rng)
        except DROPPED:
            player.reconnects += 1
            attempt += 1
            await asyncio.sleep(0.2)
        finally:
            await ws.close()
    if player.final is None:
        player.problems.append(f"{player.name}: the match did not end in time (version {player.version})")


async def _session(player: Player, ws: WebSocket, deadline: float, rng: random.Random) -> None:
    actionable: MatchFrame | None = None
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        frame = read_frame(await asyncio.wait_for(ws.receive_text(), left))
        if frame.version is None:
            if frame.error_code and frame.error_code != "stale" and actionable is not None:
                await _act(player, ws, actionable, rng)  # refused: choose again
            continue
        if frame.version < player.version:
            player.problems.append(
                f"{player.name}: the view went back from {player.version} to {frame.version}"
            )
        player.versions.append(frame.version)
        if not frame.active:
            player.final = frame
            return
        actionable = frame if frame.your_move and frame.legal else None
        if actionable is not None:
            if player.idle_after is not None and len(player.sent) >= player.idle_after and not player.idled:
                continue  # let the turn timer run out
            await _act(player, ws, actionable, rng)


async def _act(player: Player, ws: WebSocket, frame: MatchFrame, rng: random.Random) -> None:
    await asyncio.sleep(player.think)
    action = rng.choice(frame.legal)
    assert frame.version is not None
    player.sent.append((frame.version, action))
    await ws.send_text(json.dumps({"action": action, "version": frame.version}))


def run_players(
    players: list[Player],
    match_id: int,
    *,
    timeout: float,
    seed: int = 1,
    during: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Play every seat of ``match_id`` concurrently (blocking) for at most ``timeout`` seconds,
    with ``during`` (the fault to inject) running alongside."""
    deadline = time.monotonic() + timeout

    async def main() -> None:
        rng = random.Random(seed)
        tasks: list[Awaitable[None]] = [
            play(p, match_id, deadline=deadline, rng=random.Random(rng.random())) for p in players
        ]
        if during is not None:
            tasks.append(during())
        await asyncio.gather(*tasks)

    asyncio.run(main())


async def until(condition: Callable[[], bool], *, timeout: float = 120) -> None:
    """Wait (asynchronously) until ``condition()`` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition never held")
        await asyncio.sleep(0.05)
