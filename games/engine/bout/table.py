"""The table of a bout: attack cards in the order they were laid, each with its cover."""

from __future__ import annotations

from ..data import GameData


def lay_attack(s: GameData, seat: int, mask: int) -> None:
    """Move ``mask`` from the seat's hand to the table as uncovered attack cards."""
    s.hands[seat] ^= mask
    attack = s.attack_cards
    covers = s.covers
    if not mask & (mask - 1):  # one card: every throw-in, most leads
        attack.append(mask.bit_length() - 1)
        covers.append(-1)
        return
    while mask:
        low = mask & -mask
        attack.append(low.bit_length() - 1)
        covers.append(-1)
        mask ^= low


def table_mask(s: GameData) -> int:
    """Every card on the table, attack cards and covers."""
    table = 0
    for c in s.attack_cards:
        table |= 1 << c
    for c in s.covers:
        if c >= 0:
            table |= 1 << c
    return table
