"""Who may throw in, and passing (``docs/rules.md`` §3 "Throw in", "Pass"; §1 "Teams").

With ``throw_in="all"`` every player holding cards throws in but the defender; with
``neighbours`` only the attacker and the next player after the defender who holds cards. A
defender's partner never throws in. The throwers are fixed when the bout begins or is
transferred: a neighbour who goes out during the bout is not replaced. Any card of a rank on
the table may be thrown in while the limit leaves room; a pass holds until the table changes
(a card laid, a take), which reopens every pass.

Who the bout waits for is decided on public facts only (§3 "Bito", "Waiting for the
throwers"): every thrower who has not passed, holds cards and has room under the limit (and
a defender who can still cover, or takes) is awaited and may pass, whether or not they hold a
card that fits, so neither the wait nor a bito that comes by itself tells anyone what a
thrower holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import ATTACK, FastAction
from ..cards import card_label, cards_of
from ..data import GameData
from ..errors import IllegalAction
from ..events import Event
from ..ring import CLOCKWISE, next_holding, partner_of
from ..rules import Rules
from .limits import limit_refusal
from .table import lay_attack


def throwers_for(rules: Rules, holding: Sequence[int], attacker: int, defender: int) -> tuple[int, ...]:
    """The seats allowed to throw in, attacker first, then clockwise (``holding``: see
    :mod:`..ring`)."""
    partner = partner_of(defender, rules.teams)
    if rules.throw_in == "all":
        ring = CLOCKWISE[len(holding)][attacker]
        return tuple([t for t in ring if t != defender and t != partner and holding[t]])
    out = [attacker] if holding[attacker] and attacker != defender else []
    after = next_holding(holding, defender)
    if after not in (-1, defender, partner, attacker):
        out.append(after)
    return tuple(out)


def room_to_throw(s: GameData) -> bool:
    """Whether a throw-in could still be laid, as everybody can tell: the limit leaves room and
    the defender takes or still holds a card to cover with."""
    return len(s.attack_cards) < s.attack_limit and (s.taking or s.hands[s.defender] != 0)


def open_throwers(s: GameData) -> list[int]:
    """Throwers the bout waits for: not passed and holding cards while there is room (public
    facts only: a thrower with nothing that fits is among them, and may only pass)."""
    if len(s.attack_cards) >= s.attack_limit:
        return []
    hands = s.hands
    passed = s.passed
    if s.rules.throw_in_waits == "holders":  # a game recorded under the earlier rule
        ranks = s.table_ranks
        return [t for t in s.throwers if not passed >> t & 1 and hands[t] & ranks]
    # the rest of room_to_throw(s), written out: every action of a bout asks this (actors, settle)
    if not (s.taking or hands[s.defender]):
        return []
    return [t for t in s.throwers if not passed >> t & 1 and hands[t]]


def add_throw_ins(s: GameData, hand: int, out: list[FastAction]) -> None:
    """Append the throw-ins of ``hand``, one card each, while the limit leaves room."""
    if len(s.attack_cards) < s.attack_limit:
        m = hand & s.table_ranks
        while m:
            low = m & -m
            out.append((ATTACK, low, -1))
            m ^= low


def lay_throw_in(s: GameData, seat: int, mask: int, ev: list[Event] | None) -> None:
    """Throw ``mask`` in: a change on the table, so every pass is reopened."""
    lay_attack(s, seat, mask)
    if ev is not None:
        ev.append(Event("attack", seat, tuple(cards_of(mask))))
    s.passed = 0


def note_pass(s: GameData, seat: int, ev: list[Event] | None) -> None:
    """``seat`` passes: nothing more from them until the table changes."""
    if ev is not None:
        ev.append(Event("pass", seat))
    s.passed |= 1 << seat


def fit_refusal(s: GameData, mask: int) -> IllegalAction | None:
    """Why the cards of ``mask`` may not be thrown in now: the limit, or a rank not on the
    table; None when they fit (a several-card throw-in is legal when each card is)."""
    if len(s.attack_cards) + mask.bit_count() > s.attack_limit:
        return limit_refusal(s)
    bad = mask & ~s.table_ranks
    if bad:
        labels = " ".join(card_label(c) for c in cards_of(bad))
        return IllegalAction.of("rank_not_on_table", cards=labels)
    return None


def outsider_refusal(s: GameData, seat: int) -> IllegalAction | None:
    """Why a seat that is not among the throwers may not throw in, when the rules say so."""
    if s.rules.teams and seat == partner_of(s.defender, True):
        return IllegalAction.of("partner")
    if s.rules.throw_in == "neighbours" and s.hands[seat]:
        return IllegalAction.of("not_neighbour")
    return None
