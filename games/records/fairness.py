"""Provably fair deals: a commitment to the seed at the start, the seed revealed at the end.

When a match is dealt, its page shows ``seed_commitment(match)``: the SHA-256 of
``f"{match_id}:{seed}"``. The seed itself never leaves the server while the match runs. When the
match is over its page reveals the seed, and anyone can check (with ``CHECK_CODE``, shown on the
``/fair/`` page) that it hashes to the commitment shown from the first move and that it deals
exactly the cards that were played: the engine's documented shuffle (``games.engine.shuffle``)
needs nothing but ``hashlib``. The match id in the hash ties a seed to one match.
"""

from __future__ import annotations

import hashlib

from games.models import Match

#: The check a player can run, shown verbatim on /fair/ and executed by the tests.
CHECK_CODE = """\
import hashlib

def commitment(match_id, seed):
    return hashlib.sha256(f"{match_id}:{seed}".encode()).hexdigest()

def deck(size):  # in the engine's order: 6♠ 6♣ 6♦ 6♥ 7♠ … A♥ for 36 cards
    low = {24: 9, 36: 6, 52: 2}[size]
    ranks = [str(r) for r in range(low, 11)] + ["J", "Q", "K", "A"]
    return [rank + suit for rank in ranks for suit in "SCDH"]

def shuffle(cards, seed):  # Fisher-Yates driven by SHA-256 of "seed:0", "seed:1", …
    cards, words, block = list(cards), [], 0
    for i in range(len(cards) - 1, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        while True:
            if not words:
                digest = hashlib.sha256(f"{seed}:{block}".encode()).digest()
                words, block = [int.from_bytes(digest[j:j + 4], "big") for j in range(0, 32, 4)], block + 1
            x = words.pop(0)
            if x < limit:
                break
        j = x % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards

def deal(seed, players, dealer, size=36):  # podkidnoy and perevodnoy
    order = shuffle(deck(size), seed)
    hands = [[] for _ in range(players)]
    for i in range(6 * players):  # one card at a time, clockwise from the dealer's left
        hands[(dealer + 1 + i) % players].append(order[i])
    trump = order[6 * players] if len(order) > 6 * players else order[-1]
    return hands, trump
"""


def commitment_of(match_id: int, seed: str) -> str:
    """SHA-256 hex of ``f"{match_id}:{seed}"``.

    >>> commitment_of(1, "abc")[:16]
    'fac4d75282e3de35'
    """
    return hashlib.sha256(f"{match_id}:{seed}".encode()).hexdigest()


def seed_commitment(match: Match) -> str:
    """The commitment the live match page shows from the deal on (safe to show at any time)."""
    return commitment_of(match.pk, match.seed)


def revealed_seed(match: Match) -> str | None:
    """The seed, once the match is over (finished or aborted); ``None`` while it runs."""
    return None if match.is_active else match.seed
