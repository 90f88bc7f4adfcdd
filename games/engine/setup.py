"""Starting a game: the seeded deal (or an explicit one for scripted tests), the trump,
the first attacker, and the redeal.

The deal goes one card at a time clockwise from the dealer's left, six rounds; the next
card is turned up as trump and put under the stock.  When the deal uses the whole deck,
the last card dealt (the dealer's) shows the trump and stays in hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import (
    BEATERS,
    SUIT_MASK,
    SUIT_SYMBOLS,
    SUITS,
    card_from_str,
    cards_of,
    deck_cards,
    mask_of,
)
from .errors import IllegalAction
from .events import Event
from .rules import Rules
from .shuffle import dealer_from_seed, shuffled
from .state import LEAD, GameState

CardLike = str | int


def to_card(c: CardLike) -> int:
    """A card given as notation or as its int."""
    return c if isinstance(c, int) else card_from_str(c)


def _suit(s: str | int) -> int:
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


def blank_state(rules: Rules, seed: str, dealer: int) -> GameState:
    """A state with every field set and nothing dealt."""
    s = object.__new__(GameState)
    s.rules = rules
    s.seed = seed
    s.dealer = dealer
    s.n = rules.players
    s.trump = 0
    s.trump_card = -1
    s.beaters = ()
    s.hands = [0] * rules.players
    s.stock = []
    s.discard = 0
    s.att = []
    s.cov = []
    s.tranks = 0
    s.thr = ()
    s.attacker = -1
    s.defender = -1
    s.leader = -1
    s.dstart = 0
    s.cap = 0
    s.phase = LEAD
    s.taking = False
    s.passed = 0
    s.bito_done = False
    s.places = []
    s.out_mask = 0
    s.out_bout = []
    s.nactions = 0
    s.opened = False
    s.redeals = 0
    s.shown = 0
    s.result_ = None
    s.joker_covered = False
    s.stage = 0
    s.circle = []
    s.center = -1
    s.drawn = -1
    s.s1turn = -1
    s.lead_size = 0
    s.rnd_order = []
    s.rnd_pos = -1
    s.rnd_added = False
    s.first_card = -1
    return s


def set_trump(s: GameState, suit: int) -> None:
    """Make ``suit`` trump, with the cover table of that trump."""
    s.trump = suit
    s.beaters = BEATERS[(suit, s.rules.joker_beats)]


def lowest_trump_seat(s: GameState) -> tuple[int, int]:
    """(seat, card) of the lowest trump in hand, or (-1, -1) when nobody holds one."""
    best = (-1, -1)
    tm = SUIT_MASK[s.trump]
    for seat, h in enumerate(s.hands):
        t = h & tm
        if t:
            c = (t & -t).bit_length() - 1
            if best[1] < 0 or c < best[1]:
                best = (seat, c)
    return best


def start_play(s: GameState, forced: int | None = None) -> None:
    """Find the first attacker (lowest trump, else the dealer's left) and open the bout."""
    seat, card = lowest_trump_seat(s)
    s.first_card = card
    if forced is not None:
        seat = forced
    if seat < 0 or not s.hands[seat]:
        seat = (s.dealer + 1) % s.n
        if not s.hands[seat]:
            seat = s._next_with_cards(seat)
    s._start_bout(seat, None)


def _deal_seeded(s: GameState, seed: str) -> None:
    n = s.n
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


def new_game(
    rules: Rules,
    seed: str = "",
    dealer: int | None = None,
    deal: Deal | None = None,
    first_attacker: int | None = None,
    events: list[Event] | None = None,
) -> GameState:
    """Deal a game: seeded, or exactly as ``deal`` says.

    ``events``, when given, receives what happened before the first choice (the
    forced draws of circle stage 1).

    >>> s = new_game(Rules(players=3), seed="abc")
    >>> sum(h.bit_count() for h in s.hands) + len(s.stock)
    36
    >>> s.awaiting() == {s.attacker: "lead"}
    True
    """
    if deal is not None and deal.dealer is not None:
        dealer = deal.dealer
    if dealer is None:
        dealer = dealer_from_seed(seed, rules.players)
    if not 0 <= dealer < rules.players:
        raise ValueError(f"there is no seat {dealer} to deal")
    s = blank_state(rules, seed, dealer)
    forced = first_attacker
    if deal is not None and deal.first_attacker is not None:
        forced = deal.first_attacker
    if rules.variant == "circle":
        from .circle import setup_circle

        setup_circle(s, deal, forced, events)
        return s
    if deal is None:
        _deal_seeded(s, seed)
    else:
        deal_explicit(s, deal)
    start_play(s, forced)
    return s


def deal_explicit(s: GameState, deal: Deal) -> None:
    """Set up the hands, stock, discard and trump exactly as ``deal`` says."""
    if deal.hands is None or len(deal.hands) != s.n:
        raise ValueError(f"give one hand per seat ({s.n})")
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
        set_trump(s, _suit(deal.trump_suit))


def redeal(s: GameState, seat: int, ev: list[Event] | None) -> None:
    """Option redeal: ``seat`` shows five or six cards of one suit; deal again from the
    next seed of the game's sequence (``f"{seed}/redeal{n}"``), same dealer."""
    shown = 0
    for m in SUIT_MASK:
        if (s.hands[seat] & m).bit_count() >= 5:
            shown = s.hands[seat] & m
            break
    if not shown:
        raise IllegalAction.of("no_redeal")
    s.redeals += 1
    if ev is not None:
        ev.append(Event("redeal", seat, tuple(cards_of(shown))))
    s.discard = 0
    s.bito_done = False
    _deal_seeded(s, f"{s.seed}/redeal{s.redeals}")
    start_play(s)
