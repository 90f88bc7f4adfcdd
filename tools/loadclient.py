"""The scripted players of ``manage.py loadtest``: a tiny asyncio websocket client and the loop
that plays one two-player table over the match sockets, as a browser would.

Why a hand-written client: the stack has no asyncio websocket library (daphne brings Twisted and
autobahn, which would need their own reactor), and a load generator needs nothing but a handshake
with the session cookie, masked text frames out and whole frames in (RFC 6455). Server frames are
never fragmented by daphne, but continuation frames are joined anyway.

A player reads only what its own socket pushes, exactly like the page: the status fragment's
``data-version`` / ``data-your-move`` and the move form's ``data-legal`` (the legal actions the
server offers this seat). It answers with the frame the page's form sends,
``{"action": ..., "version": ...}``. The latency of a move is measured from that send until an
update at a newer version has arrived on every seated socket of the table.
"""

from __future__ import annotations

import asyncio
import base64
import html
import json
import os
import random
import re
import struct
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

#: RFC 6455 opcodes this client handles.
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


class WebSocketClosed(ConnectionError):
    """The server closed the socket (``code``: its close code, or the HTTP status of a refused
    handshake)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"websocket closed with code {code}")
        self.code = code


class WebSocket:
    """One client websocket over asyncio streams: text frames out, whole messages in."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        path: str,
        *,
        cookie: str = "",
        address: str = "",
        source: str = "",
        timeout: float = 10.0,
    ) -> WebSocket:
        """Open ``ws://host:port/path`` with ``cookie``; raises ``WebSocketClosed`` on refusal.
        ``address``: the client's address as a proxy in front would pass it (``X-Forwarded-For``);
        ``source``: the local address to connect from (a loopback one: a proxy on this machine
        then sees a client of that address)."""
        local = (source, 0) if source else None
        connecting = asyncio.open_connection(host, port, limit=2**22, local_addr=local)
        reader, writer = await asyncio.wait_for(connecting, timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            f"Origin: http://{host}:{port}",
        ]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        if address:
            lines.append(f"X-Forwarded-For: {address}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        status = int(head.split(b" ", 2)[1])
        if status != 101:
            writer.close()
            raise WebSocketClosed(status)
        return cls(reader, writer)

    async def send_text(self, text: str) -> None:
        """Send one masked text frame (any length)."""
        self.writer.write(encode_frame(OP_TEXT, text.encode()))
        await self.writer.drain()

    async def receive_text(self) -> str:
        """The next text message; answers pings; raises ``WebSocketClosed`` on close."""
        parts: list[bytes] = []
        while True:
            head = await self.reader.readexactly(2)
            opcode, length = head[0] & 0x0F, head[1] & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
            payload = await self.reader.readexactly(length)
            if opcode == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                raise WebSocketClosed(code)
            if opcode == OP_PING:
                self.writer.write(encode_frame(OP_PONG, payload))
                continue
            if opcode == OP_PONG:
                continue
            parts.append(payload)
            if head[0] & 0x80:
                return b"".join(parts).decode()

    async def close(self) -> None:
        """Send a normal close frame and drop the connection."""
        try:
            self.writer.write(encode_frame(OP_CLOSE, struct.pack("!H", 1000)))
            await self.writer.drain()
        except (ConnectionError, RuntimeError):
            pass
        self.writer.close()


def encode_frame(opcode: int, payload: bytes) -> bytes:
    """A final, masked client frame (clients must mask, RFC 6455 §5.3)."""
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 2**16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    mask = os.urandom(4)
    if not length:
        return header + mask
    repeated = (mask * (length // 4 + 1))[:length]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(length, "big")
    return header + mask + masked


# --- reading the page's fragments ------------------------------------------------------------

_STATUS = re.compile(
    r'id="match-status"[^>]*?data-your-move="([01])" data-version="(\d+)" data-active="([01])"'
)
_LEGAL = re.compile(r'data-legal="([^"]*)"')
_ERROR = re.compile(r'id="match-error"(?:[^>]*?data-code="([^"]*)")?[^>]*>([^<]*)</p>')


@dataclass(frozen=True, slots=True)
class MatchFrame:
    """What a player reads from one pushed frame of its match socket."""

    version: int | None
    your_move: bool
    legal: tuple[str, ...]
    active: bool
    error_code: str
    error: str


def read_frame(text: str) -> MatchFrame:
    """Parse a match socket frame (out-of-band fragments of ``games/match.html``).

    >>> read_frame('<p class="match-error" id="match-error" data-code="stale">Later</p>').error_code
    'stale'
    """
    status = _STATUS.search(text)
    legal = _LEGAL.search(text)
    error = _ERROR.search(text)
    actions: tuple[str, ...] = ()
    if legal:
        actions = tuple(str(move["action"]) for move in json.loads(html.unescape(legal.group(1))))
    return MatchFrame(
        version=int(status.group(2)) if status else None,
        your_move=bool(status and status.group(1) == "1"),
        legal=actions,
        active=status.group(3) == "1" if status else True,
        error_code=(error.group(1) or "") if error else "",
        error=html.unescape(error.group(2)).strip() if error else "",
    )


# --- results --------------------------------------------------------------------------------


@dataclass
class Tally:
    """Latencies (seconds) and counts gathered by every client of a run; ``sent`` holds when each
    latency's move was sent (``time.monotonic()``), in the same order."""

    latencies: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)
    #: At a table of one player and bots: from the frame that hands the turn to a bot to the
    #: frame that shows its move (seconds).
    bot_turns: list[float] = field(default_factory=list)
    moves: int = 0
    matches: int = 0
    errors: list[str] = field(default_factory=list)

    def error(self, text: str) -> None:
        self.errors.append(text)


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) by the nearest-rank method; 0 for no values.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    (2.0, 4.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(-(-q * len(ordered) // 1)) - 1))
    return ordered[rank]


# --- one table --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    """A scripted player: its session cookie, the server it connects to, and its address: sent
    as a proxy would (``address``, straight to daphne; ignored by a site that trusts no proxy),
    or its sockets' own loopback address (``source``, through a proxy on this machine), so that
    per-address limits see each player apart."""

    cookie: str
    host: str
    port: int
    address: str = ""
    source: str = ""


@dataclass
class _Socket:
    """A seated socket and the newest version it has shown."""

    ws: WebSocket
    version: int = -1
    frame: MatchFrame | None = None
    arrived: asyncio.Event = field(default_factory=asyncio.Event)


#: Starts the next match at a table once one ends; returns its id (None: stop playing).
NextMatch = Callable[[int], Awaitable[int | None]]


@dataclass
class Clock:
    """The measured window: tables connect and get their first views, then wait for ``go``
    (set once every table is ready), so the opening burst of full renders is not measured."""

    duration: float
    go: asyncio.Event = field(default_factory=asyncio.Event)
    until: float = 0.0

    def start(self) -> None:
        self.until = time.monotonic() + self.duration
        self.go.set()

    def running(self) -> bool:
        return not self.go.is_set() or time.monotonic() < self.until


async def play_table(
    match_id: int,
    seats: list[Seat],
    *,
    clock: Clock,
    ready: Callable[[], None],
    think: float,
    tally: Tally,
    next_match: NextMatch,
    rng: random.Random,
    move_timeout: float = 15.0,
) -> None:
    """Play matches at one table while ``clock`` runs; ``ready()`` once its first views are in.

    Every seat has its own socket; the seat whose turn it is waits ``think`` seconds (jittered),
    then sends a random legal action and times how long the new version takes to reach every
    seat. At a table of one player and bots (one seat given), the time each bot's move takes to
    show is timed too. A finished match is followed by ``next_match``'s."""
    called = False

    def ready_once() -> None:
        nonlocal called
        if not called:
            called = True
            ready()

    current: int | None = match_id
    while current is not None and clock.running():
        finished = await _play_match(
            current, seats, clock, None if called else ready_once, think, tally, rng, move_timeout
        )
        ready_once()  # a table that broke before its first view must not hold the others
        if not finished:
            return
        tally.matches += 1
        current = await next_match(current)


async def _play_match(
    match_id: int,
    seats: list[Seat],
    clock: Clock,
    ready: Callable[[], None] | None,
    think: float,
    tally: Tally,
    rng: random.Random,
    move_timeout: float,
) -> bool:
    """One match; True when it ended, False when time ran out or it broke (errors counted)."""
    path = f"/ws/match/{match_id}/"
    sockets: list[_Socket] = []
    bot_turn: tuple[int, float] | None = None  # the version that handed a bot the turn, and when
    readers: list[asyncio.Task[None]] = []
    try:
        for seat in seats:
            ws = await WebSocket.connect(
                seat.host, seat.port, path, cookie=seat.cookie, address=seat.address, source=seat.source
            )
            sockets.append(_Socket(ws))
        readers = [asyncio.create_task(_read(s, tally, match_id)) for s in sockets]
        if ready is not None:
            if not await _wait_all(sockets, lambda s: s.frame is not None, 120):
                tally.error(f"match {match_id}: no first view")
            ready()
            await clock.go.wait()
        while clock.running():
            if not await _wait_all(sockets, lambda s: s.frame is not None, move_timeout):
                tally.error(f"match {match_id}: no view arrived")
                return False
            views = [s.frame for s in sockets if s.frame is not None]
            if not all(v.active for v in views):
                return True
            mover = next((s for s in sockets if s.frame and s.frame.your_move and s.frame.legal), None)
            if mover is None:  # a bot's turn, or the other seat's update has not arrived yet
                if bot_turn is None or bot_turn[0] != sockets[0].version:
                    bot_turn = (sockets[0].version, time.monotonic())
                if not await _wait_any(sockets, move_timeout):
                    tally.error(f"match {match_id}: nobody may move at version {views[0].version}")
                    return False
                if len(sockets) == 1 and sockets[0].version > bot_turn[0]:
                    tally.bot_turns.append(time.monotonic() - bot_turn[1])
                continue
            assert mover.frame is not None
            version, legal = mover.version, mover.frame.legal
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if mover.version != version:  # the table moved on meanwhile (a deadline): look again
                continue
            action = rng.choice(legal)
            for s in sockets:
                s.arrived.clear()
            sent = time.monotonic()
            await mover.ws.send_text(json.dumps({"action": action, "version": version}))
            if not await _wait_all(sockets, _newer_than(version), move_timeout):
                tally.error(f"match {match_id}: {action!r} at version {version} never arrived")
                return False
            tally.latencies.append(time.monotonic() - sent)
            tally.sent.append(sent)
            tally.moves += 1
        return False
    except (OSError, WebSocketClosed, asyncio.IncompleteReadError) as error:
        tally.error(f"match {match_id}: {type(error).__name__}: {error}")
        return False
    finally:
        for task in readers:
            task.cancel()
        for s in sockets:
            await s.ws.close()


async def _read(sock: _Socket, tally: Tally, match_id: int) -> None:
    """Keep ``sock``'s newest view; count every error frame (only one seat is awaited at a time
    at these tables, so even a stale version would mean something went wrong)."""
    try:
        while True:
            frame = read_frame(await sock.ws.receive_text())
            if frame.error_code or frame.error:
                tally.error(f"match {match_id}: error frame {frame.error_code}: {frame.error}")
            if frame.version is not None and frame.version >= sock.version:
                sock.version = frame.version
                sock.frame = frame
            sock.arrived.set()
    except (OSError, WebSocketClosed, asyncio.IncompleteReadError):
        sock.arrived.set()


def _newer_than(version: int) -> Callable[[_Socket], bool]:
    """Whether a socket has shown a version after ``version``."""
    return lambda sock: sock.version > version


async def _wait_all(sockets: list[_Socket], ready: Callable[[_Socket], bool], timeout: float) -> bool:
    """Wait until ``ready`` holds for every socket (False on timeout)."""
    deadline = time.monotonic() + timeout
    while not all(ready(s) for s in sockets):
        left = deadline - time.monotonic()
        if left <= 0 or not await _wait_any(sockets, left):
            return all(ready(s) for s in sockets)
    return True


async def _wait_any(sockets: list[_Socket], timeout: float) -> bool:
    """Wait for the next frame on any socket (False on timeout)."""
    waiters = [asyncio.create_task(s.arrived.wait()) for s in sockets]
    done, pending = await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    for s in sockets:
        if s.arrived.is_set():
            s.arrived.clear()
    return bool(done)


# --- the echo floor ---------------------------------------------------------------------------


async def echo_socket(
    host: str,
    port: int,
    *,
    until: float,
    think: float,
    tally: Tally,
    rng: random.Random,
    source: str = "",
) -> None:
    """Send a frame to ``/ws/echo/`` every ``think`` seconds (jittered) and time its return
    (``source``: the local address to connect from, as ``WebSocket.connect``)."""
    try:
        ws = await WebSocket.connect(host, port, "/ws/echo/", source=source)
    except (OSError, WebSocketClosed, TimeoutError) as error:
        tally.error(f"echo: {type(error).__name__}: {error}")
        return
    try:
        number = 0
        while time.monotonic() < until:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            number += 1
            sent = time.monotonic()
            await ws.send_text(f"ping {number}")
            if await asyncio.wait_for(ws.receive_text(), 15) != f"ping {number}":
                tally.error("echo: wrong reply")
                return
            tally.latencies.append(time.monotonic() - sent)
            tally.sent.append(sent)
            tally.moves += 1
    except (OSError, WebSocketClosed, asyncio.IncompleteReadError, TimeoutError) as error:
        tally.error(f"echo: {type(error).__name__}: {error}")
    finally:
        await ws.close()
