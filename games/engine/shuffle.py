"""The seeded shuffle: same seed, same deal, on any machine and Python version.

Algorithm (stable; changing it changes every stored game, so don't):

1. A byte stream: block ``n`` (n = 0, 1, 2, …) is ``sha256(f"{seed}:{n}".encode("utf-8"))``;
   the stream is the concatenation of the 32-byte digests.
2. A uniform integer in ``[0, k)``: read 4 bytes big-endian as ``x``; reject and read again
   while ``x >= 2**32 - (2**32 % k)``; answer ``x % k``.
3. Fisher-Yates: for ``i`` from ``len(cards) - 1`` down to 1, swap ``cards[i]`` with
   ``cards[uniform(i + 1)]``.  The input order is the deck's ascending card order.

Derived seeds keep replay exact: a redeal uses ``f"{seed}/redeal{n}"``, the circle
leftovers ``f"{seed}/leftovers"``, the dealer (when not given) ``uniform(players)`` on
``f"{seed}/dealer"``.

>>> shuffled([1, 2, 3, 4, 5], "abc") == shuffled([1, 2, 3, 4, 5], "abc")
True
>>> sorted(shuffled(list(range(36)), "x")) == list(range(36))
True
"""

from __future__ import annotations

import hashlib
import struct

_WORDS = struct.Struct(">8I")


class SeedStream:
    """Uniform integers from the SHA-256 counter-mode stream of a seed string."""

    __slots__ = ("_buf", "_counter", "_pos", "_seed")

    def __init__(self, seed: str) -> None:
        self._seed = seed
        self._counter = 0
        self._buf = b""
        self._pos = 0

    def _word(self) -> int:
        if self._pos + 4 > len(self._buf):
            self._buf = hashlib.sha256(f"{self._seed}:{self._counter}".encode()).digest()
            self._counter += 1
            self._pos = 0
        x = int.from_bytes(self._buf[self._pos : self._pos + 4], "big")
        self._pos += 4
        return x

    def uniform(self, k: int) -> int:
        """A uniform integer in ``[0, k)`` by rejection sampling."""
        if k <= 0:
            raise ValueError("k must be positive")
        limit = (1 << 32) - ((1 << 32) % k)
        while True:
            x = self._word()
            if x < limit:
                return x % k


def shuffled(cards: list[int], seed: str) -> list[int]:
    """A Fisher-Yates shuffle of a copy of ``cards`` driven by ``seed``.

    The same stream as :class:`SeedStream`, unrolled for speed (a deal is on every
    game's path)."""
    out = list(cards)
    words: tuple[int, ...] = ()
    pos = 8  # words per block: the first draw computes block 0
    block = 0
    sha = hashlib.sha256
    for i in range(len(out) - 1, 0, -1):
        k = i + 1
        limit = 4294967296 - 4294967296 % k
        while True:
            if pos == 8:
                words = _WORDS.unpack(sha(f"{seed}:{block}".encode()).digest())
                block += 1
                pos = 0
            x = words[pos]
            pos += 1
            if x < limit:
                break
        j = x % k
        out[i], out[j] = out[j], out[i]
    return out


def dealer_from_seed(seed: str, players: int) -> int:
    """The dealer of a table's first game, derived from the seed."""
    return SeedStream(f"{seed}/dealer").uniform(players)
