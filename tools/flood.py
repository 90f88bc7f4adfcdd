"""The hostile client of ``manage.py loadtest --flood``: one client address flooding the site.

Three floods, each from ``size`` concurrent connections that start again as soon as one ends:

* ``streams``: Bot API event streams with one bot token (``GET /api/stream/event``); a stream
  that is admitted is held open, read, until the flood ends (``open_max``: the most held at once);
* ``handshakes``: anonymous websocket handshakes on public chat sockets (``/ws/chat/<id>/`` of
  the honest tables' matches), each closed as soon as it is answered;
* ``requests``: anonymous GETs of pages that read the database.

Every answer is counted by HTTP status (101 for an accepted handshake) or by the error's kind.
The client's address goes in ``X-Forwarded-For``, as the proxy in front of daphne passes it (with
``--address ''``, none: through a proxy on this machine, the flood is its loopback address).

Run as its own process (``python -m tools.flood``), so its loop never delays the honest players'
(their latencies are what is measured); it floods until SIGTERM, then prints its counts as one
JSON object. Plain asyncio, as ``tools.loadclient``: no Django here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import time
from collections import Counter
from collections.abc import Awaitable, Callable

from tools.loadclient import WebSocket, WebSocketClosed

KINDS = ("streams", "handshakes", "requests")
#: Pages an anonymous visitor may GET, each reading the database.
PAGES = ("/", "/play/", "/rules/", "/tournaments/")
TIMEOUT = 10.0


async def http_get(
    host: str, port: int, path: str, headers: dict[str, str]
) -> tuple[int, asyncio.StreamReader, asyncio.StreamWriter]:
    """Send ``GET path`` (HTTP/1.1, ``Connection: close``); its status and the open stream."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), TIMEOUT)
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
    except BaseException:
        writer.close()
        raise
    return int(head.split(b" ", 2)[1]), reader, writer


class Flood:
    """The floods of one run and their counts, by kind."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.host: str = args.host
        self.ports: list[int] = args.ports
        self.token: str = args.token
        self.matches: list[int] = args.matches
        self.headers = {"X-Forwarded-For": args.address} if args.address else {}
        self.address: str = args.address
        self.pause: float = args.pause
        self.stop = asyncio.Event()
        self.counts: dict[str, Counter[str]] = {kind: Counter() for kind in KINDS}
        #: Admitted streams open now, and the most ever open at once.
        self.streams_open = 0
        self.streams_open_max = 0
        self.rng = random.Random(args.seed)

    def port(self) -> int:
        return self.rng.choice(self.ports)

    async def loop(self, kind: str, attempt: Callable[[], Awaitable[str]]) -> None:
        """Attempt again and again until the flood ends; count each kind of answer."""
        while not self.stop.is_set():
            try:
                answer = await attempt()
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError) as error:
                answer = type(error).__name__
            self.counts[kind][answer] += 1
            if self.pause:
                await asyncio.sleep(self.pause)

    async def stream(self) -> str:
        headers = {**self.headers, "Authorization": f"Bearer {self.token}"}
        status, reader, writer = await http_get(self.host, self.port(), "/api/stream/event", headers)
        held = status == 200
        if held:
            self.streams_open += 1
            self.streams_open_max = max(self.streams_open_max, self.streams_open)
        try:
            while held and not self.stop.is_set():  # hold it, as a client would
                try:
                    if not await asyncio.wait_for(reader.read(65536), 1.0):
                        break
                except TimeoutError:
                    continue
            if not held:
                await asyncio.wait_for(reader.read(), TIMEOUT)
        finally:
            writer.close()
            self.streams_open -= held
        return str(status)

    async def handshake(self) -> str:
        path = f"/ws/chat/{self.rng.choice(self.matches)}/"
        try:
            ws = await WebSocket.connect(self.host, self.port(), path, address=self.address, timeout=TIMEOUT)
        except WebSocketClosed as refused:
            return str(refused.code)
        await ws.close()
        return "101"

    async def request(self) -> str:
        status, reader, writer = await http_get(self.host, self.port(), self.rng.choice(PAGES), self.headers)
        try:
            await asyncio.wait_for(reader.read(), TIMEOUT)
        finally:
            writer.close()
        return str(status)

    async def run(self, kinds: list[str], size: int) -> dict[str, dict[str, int]]:
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, self.stop.set)
        attempts = {"streams": self.stream, "handshakes": self.handshake, "requests": self.request}
        started = time.monotonic()
        await asyncio.gather(*(self.loop(kind, attempts[kind]) for kind in kinds for _ in range(size)))
        elapsed = time.monotonic() - started
        report: dict[str, dict[str, int]] = {kind: dict(self.counts[kind]) for kind in kinds}
        for kind in kinds:
            report[kind]["per_s"] = round(sum(self.counts[kind].values()) / elapsed)
        if "streams" in kinds:
            report["streams"]["open_max"] = self.streams_open_max
        return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", required=True, help="comma-separated: " + ", ".join(KINDS))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--ports", required=True, type=lambda text: [int(p) for p in text.split(",")])
    parser.add_argument("--size", type=int, default=100, help="concurrent connections per flood")
    parser.add_argument("--token", default="", help="the bot token of the stream flood")
    parser.add_argument(
        "--matches",
        default="",
        type=lambda text: [int(m) for m in text.split(",") if m],
        help="chat socket ids",
    )
    parser.add_argument(
        "--address", default="203.0.113.66", help="the flooding client's address ('': none, behind a proxy)"
    )
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between a connection's attempts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kinds = [kind for kind in args.kinds.split(",") if kind]
    if not kinds or set(kinds) - set(KINDS):
        parser.error(f"--kinds takes {', '.join(KINDS)}")
    if "handshakes" in kinds and not args.matches:
        parser.error("the handshake flood needs --matches")
    report = asyncio.run(Flood(args).run(kinds, args.size))
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
