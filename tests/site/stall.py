"""A TCP proxy whose open connections can be made to go silent: a half-open connection on demand.

What it stands for: a connection that stays open at both ends while nothing crosses it any more
(a NAT or load balancer that forgot the flow, a host that vanished without a reset, a frozen
proxy). Neither side gets an error; reads just never return. Connections made after ``stall``
pass as usual, as they would through a fresh flow, so a client that notices and reconnects
recovers. It runs in threads, so a test can put it between Redis and a subprocess or an event
loop of its own.
"""

from __future__ import annotations

import select
import socket
import threading

from .helpers import free_port


class StallingProxy:
    """Forwards ``127.0.0.1:<port>`` to ``target_port`` until ``stall`` silences what is open."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._lock = threading.Lock()
        self._pairs: list[_Pair] = []
        self._closed = threading.Event()
        threading.Thread(target=self._accept, name="stalling-proxy", daemon=True).start()

    @property
    def accepted(self) -> int:
        """Connections made through the proxy so far (a reconnect adds one)."""
        with self._lock:
            return len(self._pairs)

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def stall(self) -> int:
        """Silence every connection open now (both ways, sockets left open); how many."""
        with self._lock:
            pairs = [pair for pair in self._pairs if not pair.stalled.is_set()]
        for pair in pairs:
            with pair.lock:  # once this returns, not a byte more crosses
                pair.stalled.set()
        return len(pairs)

    def close(self) -> None:
        self._closed.set()
        self._listener.close()
        with self._lock:
            pairs = list(self._pairs)
        for pair in pairs:
            pair.close()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _address = self._listener.accept()
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                return
            pair = _Pair(client, upstream, self._closed)
            with self._lock:
                self._pairs.append(pair)
            pair.start()


class _Pair:
    """A client connection and its upstream one, pumped both ways until stalled or closed."""

    def __init__(self, client: socket.socket, upstream: socket.socket, closed: threading.Event) -> None:
        self.client, self.upstream = client, upstream
        self.stalled = threading.Event()
        self.lock = threading.Lock()
        self.closed = closed

    def start(self) -> None:
        threading.Thread(target=self._pump, name="stalling-proxy-pump", daemon=True).start()

    def _pump(self) -> None:
        ends = {self.client: self.upstream, self.upstream: self.client}
        while not self.closed.is_set():
            if self.stalled.is_set():  # read nothing more, close nothing: silence
                self.closed.wait(0.5)
                continue
            readable, _, _ = select.select(list(ends), [], [], 0.1)
            for source in readable:
                with self.lock:
                    if self.stalled.is_set():
                        break
                    try:
                        data = source.recv(65536)
                        if not data:
                            raise OSError("closed")
                        ends[source].sendall(data)
                    except OSError:
                        self.close()
                        return

    def close(self) -> None:
        for end in (self.client, self.upstream):
            try:
                end.close()
            except OSError:
                continue
