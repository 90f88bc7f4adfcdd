"""A bout begins: who attacks whom, and the lead (``docs/rules.md`` §2, §3 "Lead").

The attacker leads against the next opponent who holds cards; the limit and the throwers are
fixed then. Outside ``circle`` stage 2 a lead is one card or several cards of one rank, within
the limit (the stage-2 leads of 1, 3 or 5 cards are :mod:`games.engine.circle.stage2`'s).
"""

from __future__ import annotations

from ..actions import ATTACK, FastAction
from ..cards import JOKERS_MASK, RANK_GROUP, SUBSETS, cards_of, ranks_of_mask
from ..data import GameData
from ..errors import IllegalAction
from ..events import Event
from ..phases import BOUT, LEAD
from ..ring import next_opponent
from .limits import limit_refusal, set_limit
from .table import lay_attack
from .throwers import throwers_for

_PLAIN = (1 << 52) - 1  # every card but the jokers

#: LEADS[k][r][g] = the one-rank leads of at most ``k`` cards (k <= 4) from the cards of
#: pattern ``g`` in rank group ``r`` (cards ``4r .. 4r+3``), as ready fast actions: listing
#: leads then builds no tuple.
LEADS: tuple[tuple[tuple[tuple[FastAction, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple((ATTACK, sub << 4 * r, -1) for sub in SUBSETS[g] if sub.bit_count() <= k) for g in range(16)
        )
        for r in range(13)
    )
    for k in range(5)
)


#: LEADS_OF_TWO_RANKS[k][c][g] = the same for the 8-bit pattern ``g`` of rank groups ``2c`` and
#: ``2c + 1``: a hand is read a byte at a time, in half the steps of a rank at a time.
LEADS_OF_TWO_RANKS: tuple[tuple[tuple[tuple[FastAction, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(by_rank[2 * c][g & 15] + (by_rank[2 * c + 1][g >> 4] if c < 6 else ()) for g in range(256))
        for c in range(7)
    )
    for by_rank in LEADS
)


def begin_bout(s: GameData, attacker: int) -> None:
    """``attacker`` (who holds cards) is to lead against the next opponent."""
    s.attacker = attacker
    s.leader = attacker
    s.defender = next_opponent(s.hands, attacker, s.rules.teams)
    set_limit(s)
    s.throwers = throwers_for(s.rules, s.hands, attacker, s.defender)
    s.phase = LEAD
    s.lead_size = 0


def leads_of_one_rank(s: GameData, hand: int) -> list[FastAction]:
    """Every lead of one card or several of one rank from ``hand``, within the limit."""
    out: list[FastAction] = []
    limit = s.attack_limit
    plain = hand & _PLAIN
    for leads in LEADS_OF_TWO_RANKS[limit if limit < 4 else 4]:
        if not plain:
            break
        pattern = plain & 255
        if pattern:
            out += leads[pattern]
        plain >>= 8
    return out


def is_one_rank_lead(s: GameData, mask: int) -> bool:
    """Whether ``mask`` (held by the attacker) is a one-rank lead within the limit."""
    if not mask or mask.bit_count() > s.attack_limit or mask & JOKERS_MASK:
        return False
    return not mask & ~RANK_GROUP[(mask & -mask).bit_length() - 1]


def lay_lead(s: GameData, seat: int, mask: int, ev: list[Event] | None) -> None:
    """The attacker leads ``mask``: the bout is on."""
    s.opened = True
    s.phase = BOUT
    s.leader = seat
    s.lead_size = mask.bit_count()
    lay_attack(s, seat, mask)
    s.table_ranks = ranks_of_mask(mask)  # the table was empty
    if ev is not None:
        ev.append(Event("attack", seat, tuple(cards_of(mask)), count=1))
    s.passed = 0


def one_rank_refusal(s: GameData, mask: int) -> IllegalAction:
    """Why a lead outside ``circle`` stage 2 is refused: several ranks, or the limit."""
    if len({c >> 2 for c in cards_of(mask)}) > 1:
        return IllegalAction.of("one_rank")
    return limit_refusal(s)
