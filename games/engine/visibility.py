"""Per-seat, spectator and full views: the only thing a page, socket or bot reads.

Censoring happens here and only here.  Visibility matrix:

=====================  =========  ==========  ====================
what                   own seat   spectator   full view (replay)
=====================  =========  ==========  ====================
own hand               yes        --          yes
other hands            counts     counts      yes
stock order / faces    count      count       yes
discard faces          count      count       yes
trump card, table      yes        yes         yes
circle, drawn card     yes        yes         yes
dealer                 yes        yes         yes
=====================  =========  ==========  ====================

Legal actions.  A seat's view carries what it may play, for buttons and card choosing:
``moves`` (each a :class:`~games.engine.actions.LegalMove`: kind, cards, target, notation),
``legal`` (their notation), ``legal_cards`` (the cards of its hand that some legal action
uses, in hand order) and ``legal_complete``.  ``moves`` is the whole of
:meth:`GameState.legal_actions` up to :data:`LEGAL_LIST_MAX` actions.  Beyond that (a
``circle`` stage-2 lead from a big hand has a thousand 1/3/5-card combinations) it keeps
only the actions of at most one card -- every cover, single lead, single throw-in or
transfer, ``show``, ``take``, ``pass``, ``redeal`` -- and ``legal_complete`` is False: the
left-out actions are multi-card leads and transfers made of ``legal_cards``; ask
:meth:`GameState.is_legal` about one, or submit it and show the refusal's reason.
Spectator and full views have no legal actions (``legal_complete`` stays True).

``actors`` holds only what everybody may know: before the lead it names the attacker alone,
since who may claim a redeal depends on the cards they hold (a seat sees its own ``redeal``
among its legal actions); in a bout the throwers it names are chosen on public facts
(:func:`~games.engine.bout.throwers.open_throwers`).

>>> from games.engine import Rules, new_game
>>> s = new_game(Rules(), seed="v")
>>> v = s.view(0)
>>> v.hands is None and len(v.hand) == 6 and v.hand_counts == [6, 6]
True
>>> s.spectator_view().hand
[]
>>> [m.notation for m in v.moves] == v.legal
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .actions import LegalMove
from .cards import CARD_NAMES, SUITS, cards_of, sort_key
from .data import GameData
from .phases import BOUT, LEAD, OVER


@dataclass
class View:
    """One viewer's picture of the game as plain data (``to_dict`` for JSON).

    ``viewer`` is the seat, or None for a spectator or the full view; ``hand`` is the
    viewer's own hand, ``hands`` / ``stock`` / ``discard`` are filled only in the full
    view; ``moves``, ``legal``, ``legal_cards`` and ``legal_complete`` are described in the
    module docstring.
    """

    viewer: int | None
    variant: str
    stage: int
    trump_suit: str
    trump_card: str | None
    stock_count: int
    discard_count: int
    table: list[tuple[str, str | None]]
    circle: list[str]
    drawn: str | None
    hand_counts: list[int]
    hand: list[str]
    hands: list[list[str]] | None
    stock: list[str] | None
    discard: list[str] | None
    attacker: int | None
    defender: int | None
    taking: bool
    actors: list[int]
    awaiting: dict[int, str]
    legal: list[str]
    places: list[list[int]]
    is_over: bool
    result: dict[str, Any] | None
    opening_trump: str | None = None
    players: int = 2
    out: list[int] = field(default_factory=list)
    legal_cards: list[str] = field(default_factory=list)
    legal_complete: bool = True
    #: Who dealt (public): in a whole-deck deal the dealer keeps the card that showed the trump.
    dealer: int | None = None
    moves: list[LegalMove] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (``awaiting`` keys become strings)."""
        d = asdict(self)
        d["awaiting"] = {str(k): v for k, v in self.awaiting.items()}
        d["table"] = [list(p) for p in self.table]
        d["moves"] = [m.to_dict() for m in self.moves]
        return d


#: The most legal actions a view lists in full (see the module docstring).
LEGAL_LIST_MAX = 100


def _hand(mask: int, trump: int) -> list[str]:
    return [CARD_NAMES[c] for c in sorted(cards_of(mask), key=sort_key(trump))]


def _moves(s: GameData, seat: int) -> tuple[list[LegalMove], list[str], bool]:
    """``(moves, legal_cards, legal_complete)`` of ``seat`` (see the module docstring)."""
    fast = s.legal_fast(seat)
    used = 0
    for f in fast:
        used |= f[1]
    complete = len(fast) <= LEGAL_LIST_MAX
    if not complete:
        fast = [f for f in fast if f[1].bit_count() <= 1]
    return [LegalMove.from_fast(f) for f in fast], _hand(used & s.hands[seat], s.trump_suit), complete


def build_view(s: GameData, seat: int | None, full: bool) -> View:
    """The view of ``seat`` (None: no hand), every card shown when ``full``."""
    over = s.phase == OVER
    in_bout = s.phase == BOUT
    res = s.game_result
    moves, legal_cards, complete = _moves(s, seat) if seat is not None else ([], [], True)
    return View(
        viewer=seat,
        variant=s.rules.variant,
        stage=s.stage,
        trump_suit=SUITS[s.trump_suit],
        trump_card=CARD_NAMES[s.trump_card] if s.trump_card >= 0 else None,
        stock_count=len(s.stock),
        discard_count=s.discard.bit_count(),
        table=[
            (CARD_NAMES[a], CARD_NAMES[c] if c >= 0 else None)
            for a, c in zip(s.attack_cards, s.covers, strict=True)
        ],
        circle=[CARD_NAMES[c] for c in s.circle],
        drawn=CARD_NAMES[s.drawn] if s.drawn >= 0 else None,
        hand_counts=[h.bit_count() for h in s.hands],
        hand=_hand(s.hands[seat], s.trump_suit) if seat is not None else [],
        hands=[_hand(h, s.trump_suit) for h in s.hands] if full else None,
        stock=[CARD_NAMES[c] for c in reversed(s.stock)] if full else None,
        discard=[CARD_NAMES[c] for c in cards_of(s.discard)] if full else None,
        attacker=s.attacker if s.attacker >= 0 and not over and s.stage != 1 else None,
        defender=s.defender if s.defender >= 0 and not over and s.stage != 1 else None,
        taking=s.taking and in_bout,
        actors=list(s.awaiting() if s.phase == LEAD and not full else s.actors()),
        awaiting=s.awaiting(),
        legal=[m.notation for m in moves],
        places=[list(p) for p in s.places],
        is_over=over,
        result=res.to_dict() if res is not None else None,
        opening_trump=CARD_NAMES[s.opening_trump] if s.opening_trump >= 0 else None,
        dealer=s.dealer,
        players=s.players,
        out=[t for t in range(s.players) if s.out_mask >> t & 1],
        legal_cards=legal_cards,
        legal_complete=complete,
        moves=moves,
    )
