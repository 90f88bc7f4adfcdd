"""Cards as small ints, hands as int bitmasks, and the cover relation.

Why ints: the engine clones and scans hands thousands of times per bot move, so a
card is ``(rank - 2) * 4 + suit`` (rank 2..14, suit 0..3 = ♠ ♣ ♦ ♥) and a hand is
an ``int`` with bit ``card`` set.  Lower index means lower rank, the four cards of a
rank form one 4-bit group, and the two jokers (52 red, 53 black) sit above the aces.

Notation is rank then suit letter: ``6S``, ``10H``, ``JD``, ``AD``; jokers are
``RJ`` and ``BJ`` so they never read like jacks.

>>> card_from_str("10H")
35
>>> card_str(35), card_label(35)
('10H', '10♥')
>>> card_label(RED_JOKER)
'red joker'
>>> beats(card_from_str("7S"), card_from_str("6S"), trump=2)
True
>>> beats(card_from_str("7S"), card_from_str("9S"), trump=2)
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

SUITS: Final = "SCDH"
SUIT_SYMBOLS: Final = "♠♣♦♥"
RANK_NAMES: Final = {11: "J", 12: "Q", 13: "K", 14: "A"}

RED_JOKER: Final = 52
BLACK_JOKER: Final = 53
JOKERS_MASK: Final = (1 << RED_JOKER) | (1 << BLACK_JOKER)
#: Every card of the four suits (all but the jokers), as a mask.
SUITED_MASK: Final = (1 << RED_JOKER) - 1
ALL_CARDS: Final = 54

#: Joker rules: ``"any"`` beats every card, ``"colour"`` only cards of its colour.
JOKER_ANY: Final = "any"
JOKER_COLOUR: Final = "colour"


def make_card(rank: int, suit: int) -> int:
    """Index of the card of ``rank`` (2..14) and ``suit`` (0..3)."""
    return (rank - 2) * 4 + suit


def rank_of(card: int) -> int:
    """Rank 2..14 of a card (jokers have rank 0: they never match a rank)."""
    return 0 if card >= RED_JOKER else (card >> 2) + 2


def suit_of(card: int) -> int:
    """Suit 0..3 of a card (jokers: -1)."""
    return -1 if card >= RED_JOKER else card & 3


def is_joker(card: int) -> bool:
    return card >= RED_JOKER


def card_str(card: int) -> str:
    """Canonical notation: ``6S``, ``10H``, ``AD``, ``RJ``, ``BJ``."""
    if card == RED_JOKER:
        return "RJ"
    if card == BLACK_JOKER:
        return "BJ"
    rank = rank_of(card)
    return RANK_NAMES.get(rank, str(rank)) + SUITS[card & 3]


def card_label(card: int) -> str:
    """A player's spelling for messages: ``10♥``, ``red joker``."""
    if card == RED_JOKER:
        return "red joker"
    if card == BLACK_JOKER:
        return "black joker"
    rank = rank_of(card)
    return RANK_NAMES.get(rank, str(rank)) + SUIT_SYMBOLS[card & 3]


#: CARD_NAMES[card] = card_str(card), for the views' hot loops.
CARD_NAMES: Final = tuple(card_str(c) for c in range(ALL_CARDS))

_RANK_BY_TEXT: Final = {**{str(r): r for r in range(2, 11)}, "J": 11, "Q": 12, "K": 13, "A": 14}
#: CARD_NAMES read back: a snapshot's cards and the actions' are written so, and decoding one
#: snapshot parses a few dozen of them.
_CARD_BY_NAME: Final = {name: card for card, name in enumerate(CARD_NAMES)}


def card_from_str(text: str) -> int:
    """Parse canonical notation (case-insensitive); ``ValueError`` on bad text.

    >>> card_from_str("as"), card_from_str("BJ")
    (48, 53)
    """
    card = _CARD_BY_NAME.get(text)
    if card is not None:
        return card
    t = text.strip().upper()
    if t == "RJ":
        return RED_JOKER
    if t == "BJ":
        return BLACK_JOKER
    if len(t) < 2 or t[-1] not in SUITS or t[:-1] not in _RANK_BY_TEXT:
        raise ValueError(f"{text!r} is not a card (write 6S, 10H, QD, AC, RJ or BJ)")
    return make_card(_RANK_BY_TEXT[t[:-1]], SUITS.index(t[-1]))


def deck_cards(size: int, jokers: int = 0) -> list[int]:
    """The cards of a 24 (9..A), 36 (6..A) or 52 (2..A) card deck, plus 0 or 2 jokers."""
    low = {24: 9, 36: 6, 52: 2}[size]
    cards = list(range(make_card(low, 0), ALL_CARDS - 2))
    if jokers:
        cards += [RED_JOKER, BLACK_JOKER]
    return cards


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of an iterable of card ints."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: RANK_GROUP[card] = mask of the four cards sharing the card's rank (0 for jokers).
RANK_GROUP: Final = tuple((0xF << (c & ~3)) if c < RED_JOKER else 0 for c in range(ALL_CARDS))
#: SUIT_MASK[suit] = every card of that suit.
SUIT_MASK: Final = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))


#: SUBSETS[g] = the non-empty sub-patterns of a 4-bit rank group pattern ``g`` (the cards of
#: one rank a hand holds, ``hand >> 4 * rank_index & 15``).
SUBSETS: Final = tuple(tuple(s for s in range(1, 16) if s & g == s) for g in range(16))


def ranks_of(cards: Iterable[int]) -> int:
    """Mask of every card sharing a rank with one of ``cards`` (jokers and -1 add nothing)."""
    m = 0
    for c in cards:
        if c >= 0:
            m |= RANK_GROUP[c]
    return m


#: Bit 0 of every rank group: the ranks a mask holds, one bit each (see :func:`ranks_of_mask`).
_GROUP_LOW: Final = sum(1 << (4 * r) for r in range(13))


def ranks_of_mask(mask: int) -> int:
    """:func:`ranks_of` of the cards of ``mask``, without a loop: each rank group that holds a
    card folds onto its lowest bit, and times 15 that bit fills its group (jokers add nothing).

    >>> ranks_of_mask(1 << 20 | 1 << 29 | 1 << RED_JOKER) == ranks_of([20, 29])
    True
    """
    m = mask | mask >> 1 | mask >> 2 | mask >> 3
    return (m & _GROUP_LOW) * 15


def _beaters(trump: int, joker_rule: str) -> tuple[int, ...]:
    table = []
    for a in range(ALL_CARDS):
        if a >= RED_JOKER:
            table.append(0)  # nothing beats a joker
            continue
        s = a & 3
        higher_same = SUIT_MASK[s] & ~((1 << (a + 1)) - 1)
        m = higher_same
        if s != trump:
            m |= SUIT_MASK[trump]
        if joker_rule == JOKER_ANY or (a & 3) >= 2:
            m |= 1 << RED_JOKER
        if joker_rule == JOKER_ANY or (a & 3) < 2:
            m |= 1 << BLACK_JOKER
        table.append(m)
    return tuple(table)


#: BEATERS[(trump, joker_rule)][attack] = mask of every card that beats ``attack``.
BEATERS: Final = {(t, j): _beaters(t, j) for t in range(4) for j in (JOKER_ANY, JOKER_COLOUR)}

#: BEATEN_BY[(trump, joker_rule)][cover] = mask of every card that ``cover`` beats.
BEATEN_BY: Final = {
    key: tuple(sum(1 << a for a in range(ALL_CARDS) if table[a] >> c & 1) for c in range(ALL_CARDS))
    for key, table in BEATERS.items()
}


def beats(cover: int, attack: int, trump: int, joker_beats: str = JOKER_ANY) -> bool:
    """Whether ``cover`` beats ``attack``: a higher card of its suit, any trump over a
    non-trump, a higher trump over a trump; a joker beats any card (or, with
    ``joker_beats="colour"``, cards of its colour); nothing beats a joker."""
    return bool(BEATERS[(trump, joker_beats)][attack] >> cover & 1)


def sort_key(trump: int) -> Callable[[int], tuple[int, int, int]]:
    """Key that sorts a hand for display: by rank, trumps last, jokers at the very end."""

    def key(card: int) -> tuple[int, int, int]:
        if card >= RED_JOKER:
            return (2, card, 0)
        return (1 if card & 3 == trump else 0, card >> 2, card & 3)

    return key


__all__ = [
    "ALL_CARDS",
    "BEATEN_BY",
    "BEATERS",
    "BLACK_JOKER",
    "CARD_NAMES",
    "JOKERS_MASK",
    "RANK_GROUP",
    "RED_JOKER",
    "SUBSETS",
    "SUITED_MASK",
    "SUITS",
    "SUIT_MASK",
    "beats",
    "card_from_str",
    "card_label",
    "card_str",
    "cards_of",
    "deck_cards",
    "is_joker",
    "make_card",
    "mask_of",
    "rank_of",
    "ranks_of",
    "ranks_of_mask",
    "suit_of",
]
