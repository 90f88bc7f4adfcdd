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
=====================  =========  ==========  ====================

>>> from games.engine import Rules, new_game
>>> s = new_game(Rules(), seed="v")
>>> v = s.view(0)
>>> v.hands is None and len(v.hand) == 6 and v.hand_counts == [6, 6]
True
>>> s.spectator_view().hand
[]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import SUITS, card_str, cards_of, sort_key

if TYPE_CHECKING:
    from .state import GameState


@dataclass
class View:
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (``awaiting`` keys become strings)."""
        d = asdict(self)
        d["awaiting"] = {str(k): v for k, v in self.awaiting.items()}
        d["table"] = [list(p) for p in self.table]
        return d


def _hand(mask: int, trump: int) -> list[str]:
    return [card_str(c) for c in sorted(cards_of(mask), key=sort_key(trump))]


def build_view(s: GameState, seat: int | None, full: bool) -> View:
    over = s.is_over
    in_bout = s.phase == 1
    res = s.result_
    return View(
        viewer=seat,
        variant=s.rules.variant,
        stage=s.stage,
        trump_suit=SUITS[s.trump],
        trump_card=card_str(s.trump_card) if s.trump_card >= 0 else None,
        stock_count=len(s.stock),
        discard_count=s.discard.bit_count(),
        table=[
            (card_str(a), card_str(c) if c >= 0 else None)
            for a, c in zip(s.att, s.cov, strict=True)
        ],
        circle=[card_str(c) for c in s.circle],
        drawn=card_str(s.drawn) if s.drawn >= 0 else None,
        hand_counts=[h.bit_count() for h in s.hands],
        hand=_hand(s.hands[seat], s.trump) if seat is not None else [],
        hands=[_hand(h, s.trump) for h in s.hands] if full else None,
        stock=[card_str(c) for c in reversed(s.stock)] if full else None,
        discard=[card_str(c) for c in cards_of(s.discard)] if full else None,
        attacker=s.attacker if s.attacker >= 0 and not over and s.stage != 1 else None,
        defender=s.defender if s.defender >= 0 and not over and s.stage != 1 else None,
        taking=s.taking and in_bout,
        actors=list(s.actors()),
        awaiting=s.awaiting(),
        legal=[str(a) for a in s.legal_actions(seat)] if seat is not None else [],
        places=[list(p) for p in s.places],
        is_over=over,
        result=res.to_dict() if res is not None else None,
        opening_trump=card_str(s.first_card) if s.first_card >= 0 else None,
        players=s.n,
        out=[t for t in range(s.n) if s.out_mask >> t & 1],
    )
