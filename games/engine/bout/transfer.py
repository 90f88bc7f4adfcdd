"""The transfer (``docs/rules.md`` §4; §5 "Transfer").

Before any card is covered, the defender may add cards of the rank every attack card shares:
the defender becomes the attacker and the next opponent with cards defends, against a limit
set afresh from their hand at that moment. With ``transfer_by_trump_show`` a trump of the
attack rank may be shown instead of laid (each trump once a bout); a show adds no card, so it
needs the new defender to hold as many cards as lie on the table. With two players the attack
goes straight back.
"""

from __future__ import annotations

from ..actions import SHOW, TRANSFER, FastAction
from ..cards import RANK_GROUP, SUBSETS, SUIT_MASK, cards_of
from ..data import GameData
from ..errors import IllegalAction
from ..events import Event
from ..ring import next_opponent
from .limits import limit_for, set_limit
from .table import lay_attack
from .throwers import throwers_for


def transfer_target(s: GameData) -> int:
    """Who a transfer would make the defender: the defender's next opponent with cards."""
    return next_opponent(s.hands, s.defender, s.rules.teams)


def add_transfers(s: GameData, hand: int, out: list[FastAction]) -> None:
    """Append the defender's transfers and trump shows: only before any cover, and only as
    many cards as the next defender's limit leaves room for."""
    if s.covers.count(-1) != len(s.covers):  # a card is covered (``max`` costs four times this)
        return
    target = transfer_target(s)
    if target < 0 or target == s.defender:
        return
    group = RANK_GROUP[s.attack_cards[0]]
    m = hand & group
    room = limit_for(s.rules, s.hands[target].bit_count(), s.bito_done) - len(s.attack_cards)
    if m and room > 0:
        r4 = (group & -group).bit_length() - 1
        for sub in SUBSETS[m >> r4]:
            if sub.bit_count() <= room:
                out.append((TRANSFER, sub << r4, -1))
    if s.rules.transfer_by_trump_show and room >= 0:
        t = m & SUIT_MASK[s.trump_suit] & ~s.shown
        if t:
            out.append((SHOW, t, -1))


def pass_attack_on(s: GameData, seat: int, kind: int, mask: int, ev: list[Event] | None) -> None:
    """The defender transfers (lays ``mask``) or shows the trump of ``mask``."""
    target = transfer_target(s)
    if kind == TRANSFER:
        lay_attack(s, seat, mask)
    else:
        s.shown |= mask
    if ev is not None:
        ev.append(Event("transfer" if kind == TRANSFER else "show", seat, tuple(cards_of(mask))))
    s.attacker = seat
    s.defender = target
    set_limit(s)
    s.throwers = throwers_for(s.rules, s.hands, seat, target)
    s.passed = 0


def show_rule_refusal(s: GameData, kind: int) -> IllegalAction | None:
    """A show at a table without ``transfer_by_trump_show``."""
    if kind == SHOW and not s.rules.transfer_by_trump_show:
        return IllegalAction.of("no_show")
    return None


def transfer_refusal(s: GameData, kind: int, mask: int) -> IllegalAction:
    """Why this transfer or show is refused: after a cover, another rank, not a trump, a
    trump shown twice, or too many cards for the next defender."""
    if s.covers.count(-1) != len(s.covers):
        return IllegalAction.of("transfer_after_cover")
    if mask & ~RANK_GROUP[s.attack_cards[0]]:
        return IllegalAction.of("transfer_rank")
    if kind == SHOW:
        if not mask & SUIT_MASK[s.trump_suit]:
            return IllegalAction.of("show_trump")
        if mask & s.shown:
            return IllegalAction.of("shown_twice")
    target = transfer_target(s)
    held = s.hands[target].bit_count() if target >= 0 else 0
    return IllegalAction.of("transfer_limit", cards=held)
