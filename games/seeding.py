"""The deal seed of ``docs/rules.md`` §"Fair deals": the server's committed seed and the players'
random values, combined in seat order.

Pure functions (no Django), shared by the live services that deal, the records that reveal and
the ``/fair/`` page's check code, so the site and the reader compute the same thing:

* ``commitment(server_seed)`` is ``sha256(server_seed)`` in hex: shown at the table before any
  player sends a value, so the server's part is fixed before it sees theirs;
* ``deal_seed(server_seed, values)`` is ``sha256("server_seed:v0:v1:…")[:32]`` (hex) with one
  value per seat in seat order, ``""`` for a bot's seat or a player who sent nothing before the
  deal; when no seat sent a value there is nothing to mix and the deal seed is the server seed
  itself (a table of bots deals as it always did).

Why a player cannot steer it: a value is picked knowing only the commitment (the server seed is
secret until the match is over) and nobody sees another player's value before the deal, so no
choice of value, and no withholding of one, lets a player predict what it does to the cards.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from typing import Final

#: A player's value: 32 lowercase hex digits (128 bits from ``crypto.getRandomValues``).
VALUE_PATTERN: Final = re.compile(r"[0-9a-f]{32}")


def new_server_seed() -> str:
    """A fresh secret server seed (128 bits in hex)."""
    return secrets.token_hex(16)


def commitment(server_seed: str) -> str:
    """SHA-256 hex of the server seed: what the table shows before the deal.

    >>> commitment("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(server_seed.encode()).hexdigest()


def deal_seed(server_seed: str, values: Sequence[str]) -> str:
    """The seed the engine deals with: the server seed and one value per seat, in seat order.

    >>> deal_seed("abc", ["", "0" * 32]) == deal_seed("abc", ["0" * 32, ""])
    False
    >>> deal_seed("abc", ["", ""])
    'abc'
    """
    if not any(values):
        return server_seed
    return hashlib.sha256(":".join([server_seed, *values]).encode()).hexdigest()[:32]


def valid_value(value: object) -> bool:
    """Whether ``value`` is a well-formed player value (anything else is refused)."""
    return isinstance(value, str) and VALUE_PATTERN.fullmatch(value) is not None
