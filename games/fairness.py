"""Provably fair deals (``docs/rules.md`` §"Fair deals"): the server commits to its seed before
the players send their values, and everything is revealed at the end.

Before a deal the table shows the SHA-256 of its secret server seed; each seated player's browser
sends a random value; the deal seed is ``games.seeding.deal_seed(server_seed, values)``. The
match page shows the same commitment from the first move, and once the match is over its page and
its JSON export reveal the server seed and every seat's value (or that it sent none), so anyone can
check (with ``CHECK_CODE``, shown on the ``/fair/`` page) that the server seed hashes to the
commitment, that it and the values give the seed, and that the seed deals exactly the cards that
were played: the engine's documented shuffle (``games.engine.shuffle``) needs nothing but
``hashlib``.

Matches dealt before players sent values have no server seed: their commitment was the SHA-256 of
``f"{match_id}:{seed}"`` (``legacy_commitment`` in the check code).
"""

from __future__ import annotations

import hashlib

from games import seeding
from games.models import Match

#: The check a player can run, shown verbatim on /fair/ and executed by the tests.
CHECK_CODE = """\
import hashlib

def commitment(server_seed):  # shown at the table before anyone sends a value
    return hashlib.sha256(server_seed.encode()).hexdigest()

def deal_seed(server_seed, values):  # one value per seat in seat order, "" where none was sent
    if not any(values):
        return server_seed
    return hashlib.sha256(":".join([server_seed, *values]).encode()).hexdigest()[:32]

def legacy_commitment(match_id, seed):  # matches dealt before players sent values
    return hashlib.sha256(f"{match_id}:{seed}".encode()).hexdigest()

def deck(size, jokers=0):  # the engine's order: 6♠ 6♣ 6♦ 6♥ 7♠ … A♥ for 36 cards, then the jokers
    low = {24: 9, 36: 6, 52: 2}[size]
    ranks = [str(r) for r in range(low, 11)] + ["J", "Q", "K", "A"]
    return [rank + suit for rank in ranks for suit in "SCDH"] + ["RJ", "BJ"][:jokers]

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

def deal_circle(seed, jokers=0):  # the circle game: 52 cards, and 0 or 2 jokers after the A♥
    order = shuffle(deck(52, jokers), seed)
    k = 8  # the first eight cards lie face up in the circle
    while order[k] in ("RJ", "BJ"):  # a joker turned up for the centre joins the circle
        k += 1
    return order[:k], order[k], order[k + 1:]  # circle, centre card (trump), stock from its top
"""


def commitment_of(match_id: int, seed: str) -> str:
    """SHA-256 hex of ``f"{match_id}:{seed}"``.

    >>> commitment_of(1, "abc")[:16]
    'fac4d75282e3de35'
    """
    return hashlib.sha256(f"{match_id}:{seed}".encode()).hexdigest()


def seed_commitment(match: Match) -> str:
    """The commitment the live match page shows from the deal on (safe to show at any time)."""
    if match.server_seed:
        return seeding.commitment(match.server_seed)
    return commitment_of(match.pk, match.seed)
