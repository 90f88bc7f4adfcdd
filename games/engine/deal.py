"""The deal (``docs/rules.md`` §1 "The deal", "Whole-deck deal"; §2 "The first attack").

The seeded deal goes one card at a time clockwise from the dealer's left, six rounds; the next
card is turned up as trump and put under the stock. When the deal uses the whole deck, the last
card dealt (the dealer's) shows the trump and stays in hand. A :class:`Deal` sets a table up
card by card instead (scripted tests). The lowest trump in hand attacks first; without a trump
in any hand, the player left of the dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import BEATERS, SUIT_MASK, SUIT_SYMBOLS, SUITS, card_from_str, deck_cards, mask_of
from .data import GameData
from .ring import next_holding
from .shuffle import shuffled

CardLike = str | int


def to_card(c: CardLike) -> int:
    """A card given as notation or as its int."""
    return c if isinstance(c, int) else card_from_str(c)


def to_suit(s: str | int) -> int:
    """A suit given as its letter (``D``), its symbol (``♦``) or its int."""
    if isinstance(s, int):
        return s
    t = s.strip().upper()
    if t in SUITS:
        return SUITS.index(t)
    if s.strip() in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(s.strip())
    raise ValueError(f"{s!r} is not a suit (S, C, D or H)")


@dataclass
class Deal:
    """An explicit deal for scripted positions (cards as notation or ints).

    * podkidnoy / perevodnoy: ``hands``, ``trump`` (the turned-up card under the stock)
      and ``stock`` (top first, without the trump card).  With ``trump=None`` the trump
      is kept in a hand: give ``trump_suit``.
    * circle stage 1: ``circle`` (the face-up cards), ``center`` (the trump card) and
      ``stock`` (top first).  Stage 2 directly: ``hands``, ``trump_suit``, ``stage=2``.
    * ``first_attacker`` forces who leads; otherwise the lowest trump does.
    * ``discard`` puts cards out of play (positions late in a game); with
      ``bito_done=True`` the game's first bito is taken as already made.

    A position later in a game (players out, a bout under way) is written in the position
    notation instead: :meth:`games.engine.GameState.from_position`.
    """

    hands: Sequence[Sequence[CardLike]] | None = None
    trump: CardLike | None = None
    stock: Sequence[CardLike] = ()
    dealer: int | None = None
    trump_suit: str | int | None = None
    first_attacker: int | None = None
    circle: Sequence[CardLike] | None = None
    center: CardLike | None = None
    stage: int = 1
    discard: Sequence[CardLike] = ()
    bito_done: bool = False


def set_trump(s: GameData, suit: int) -> None:
    """Make ``suit`` trump, with the cover table of that trump."""
    s.trump_suit = suit
    s.beaters = BEATERS[(suit, s.rules.joker_beats)]


def lowest_trump_seat(s: GameData) -> tuple[int, int]:
    """(seat, card) of the lowest trump in hand, or (-1, -1) when nobody holds one."""
    best = (-1, -1)
    trumps = SUIT_MASK[s.trump_suit]
    for seat, h in enumerate(s.hands):
        t = h & trumps
        if t:
            c = (t & -t).bit_length() - 1
            if best[1] < 0 or c < best[1]:
                best = (seat, c)
    return best


def start_play(s: GameData, forced: int | None = None) -> None:
    """Find the first attacker (``forced``, else the lowest trump, else the dealer's left),
    show the opening trump and open the bout."""
    seat, card = lowest_trump_seat(s)
    s.opening_trump = card
    if forced is not None:
        seat = forced
    if seat < 0 or not s.hands[seat]:
        seat = (s.dealer + 1) % s.players
        if not s.hands[seat]:
            seat = next_holding(s.hands, seat)
    s.start_bout(seat, None)


def deal_seeded(s: GameData, seed: str) -> None:
    """Deal from the shuffle of ``seed``: six rounds from the dealer's left, then the trump."""
    n = s.players
    order = shuffled(deck_cards(s.rules.deck), seed)
    hands = [0] * n
    for i in range(6 * n):
        hands[(s.dealer + 1 + i) % n] |= 1 << order[i]
    s.hands = hands
    if len(order) > 6 * n:
        s.trump_card = order[6 * n]
        s.stock = [order[6 * n], *reversed(order[6 * n + 1 :])]
    else:
        s.trump_card = order[-1]
        s.stock = []
    set_trump(s, s.trump_card & 3)


def deal_explicit(s: GameData, deal: Deal) -> None:
    """Set up the hands, stock, discard and trump exactly as ``deal`` says."""
    if deal.hands is None or len(deal.hands) != s.players:
        raise ValueError(f"give one hand per seat ({s.players})")
    seen: set[int] = set()

    def take(cards: Sequence[CardLike]) -> list[int]:
        out = [to_card(c) for c in cards]
        for c in out:
            if c in seen:
                raise ValueError(f"card {c} is dealt twice")
            seen.add(c)
        return out

    s.hands = [mask_of(take(h)) for h in deal.hands]
    stock_top_first = take(deal.stock)
    s.discard = mask_of(take(deal.discard))
    s.bito_done = deal.bito_done
    if deal.trump is not None:
        t = take([deal.trump])[0]
        s.trump_card = t
        s.stock = [t, *reversed(stock_top_first)]
        set_trump(s, t & 3)
    else:
        if deal.trump_suit is None:
            raise ValueError("without a trump card give trump_suit")
        if stock_top_first:
            raise ValueError("a stock needs its trump card under it")
        s.stock = []
        set_trump(s, to_suit(deal.trump_suit))
