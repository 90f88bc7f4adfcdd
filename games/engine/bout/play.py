"""podkidnoy and perevodnoy: the game state of each, with the rules of a bout composed.

A variant's class answers what :class:`~games.engine.state.GameState` leaves to it: who may act
(:meth:`Podkidnoy.actors`), whose move the game needs (:meth:`Podkidnoy.awaiting`), what is
legal, why an action is not, and what an action does next. The rules themselves live in the
modules beside this one; here is only the order of the bout: anyone allowed may throw in at
any time, before or after covers, first come first served, and the bout ends by itself once
nobody is left whom the rules, on public facts alone, let act (``docs/rules.md`` §3 "Bito").
:class:`Perevodnoy` adds the transfer (§4); ``circle`` stage 2 is
:class:`games.engine.circle.stage2.CircleStage2`.
"""

from __future__ import annotations

from ..actions import ATTACK, COVER, PASS, REDEAL, SHOW, TAKE, TRANSFER, FastAction
from ..cards import JOKERS_MASK
from ..errors import IllegalAction
from ..events import Event
from ..phases import (
    AWAIT_COVER,
    AWAIT_LEAD,
    AWAIT_TAKE_MORE,
    AWAIT_THROW_IN,
    BOUT,
    LEAD,
    OVER,
)
from ..redeal import redeal, redeal_seats
from ..state import GameState
from .cover import add_covers, cover_refusal, lay_cover
from .end import end_bout, finish_move_cap
from .lead import begin_bout, is_one_rank_lead, lay_lead, leads_of_one_rank, one_rank_refusal
from .take import declare_take
from .throwers import (
    add_throw_ins,
    fit_refusal,
    lay_throw_in,
    note_pass,
    open_throwers,
    outsider_refusal,
    room_to_throw,
)
from .transfer import add_transfers, pass_attack_on, show_rule_refusal, transfer_refusal

TAKE_ACTION: FastAction = (TAKE, 0, -1)
PASS_ACTION: FastAction = (PASS, 0, -1)
REDEAL_ACTION: FastAction = (REDEAL, 0, -1)


class Podkidnoy(GameState, variant="podkidnoy"):
    """A game of podkidnoy: its bout (``docs/rules.md`` §3), and the lead with its redeal."""

    __slots__ = ()
    one_rank_leads = True

    # ------------------------------------------------------------------ who acts

    def actors(self) -> tuple[int, ...]:
        ph = self.phase
        if ph == BOUT:  # the common case first: a playout asks at every action
            seats = open_throwers(self)
            if not self.taking and -1 in self.covers:
                if not seats:
                    return (self.defender,)
                seats.append(self.defender)
                seats.sort()
            elif len(seats) > 1:
                seats.sort()
            return tuple(seats)
        if ph == LEAD:
            if not self.rules.redeal or self.opened:
                return (self.attacker,)
            return tuple(sorted({self.attacker, *redeal_seats(self)}))
        return ()

    def awaiting(self) -> dict[int, str]:
        ph = self.phase
        if ph == OVER:
            return {}
        if ph == LEAD:
            return {self.attacker: AWAIT_LEAD}
        if not self.taking and -1 in self.covers:
            return {self.defender: AWAIT_COVER}
        code = AWAIT_TAKE_MORE if self.taking else AWAIT_THROW_IN
        return {t: code for t in open_throwers(self)}

    def first_awaited(self) -> int:
        ph = self.phase
        if ph == BOUT:
            if not self.taking and -1 in self.covers:
                return self.defender
            seats = open_throwers(self)
            return seats[0] if seats else -1
        if ph == LEAD:
            return self.attacker
        return -1

    # ------------------------------------------------------------------ what is legal

    def legal_fast(self, seat: int) -> list[FastAction]:
        ph = self.phase
        if ph == BOUT:  # the common case first
            if seat == self.defender:
                return self.defence(self.hands[seat])
            return self.throw_ins(seat)
        if ph == LEAD:
            out = self.leads(self.hands[seat]) if seat == self.attacker else []
            if self.rules.redeal and seat in redeal_seats(self):
                out.append(REDEAL_ACTION)
            return out
        return []

    #: The attacker's leads; whether a set of cards is a lead, without listing the leads.
    leads = leads_of_one_rank
    lead_ok = is_one_rank_lead

    def defence(self, hand: int) -> list[FastAction]:
        """The defender's covers, transfers and take (nothing more once taking)."""
        if self.taking:
            return []
        out: list[FastAction] = []
        add_covers(self, hand, out)
        if -1 in self.covers:
            self.offer_transfers(hand, out)
            out.append(TAKE_ACTION)
        return out

    def offer_transfers(self, hand: int, out: list[FastAction]) -> None:
        """Append the defender's transfers: podkidnoy has none."""

    def throw_ins(self, seat: int) -> list[FastAction]:
        """A thrower's throw-ins and pass: the pass is offered to every thrower the bout waits
        for (:func:`~.throwers.open_throwers`), "nothing to throw" or not."""
        hand = self.hands[seat]
        if self.passed >> seat & 1 or seat not in self.throwers:
            return []
        out: list[FastAction] = []
        if self.rules.throw_in_waits == "holders":  # a game recorded under the earlier rule
            add_throw_ins(self, hand, out)
            if out:
                out.append(PASS_ACTION)
            return out
        if not hand or not room_to_throw(self):
            return []
        add_throw_ins(self, hand, out)
        out.append(PASS_ACTION)
        return out

    def allows(self, seat: int, fa: FastAction) -> bool:
        kind, mask, _ = fa
        if kind == ATTACK and self.phase == LEAD and seat == self.attacker:
            return not mask & ~self.hands[seat] and self.lead_ok(mask)
        return fa in self.legal_fast(seat)

    # ------------------------------------------------------------------ why not

    def refusal(self, seat: int, fa: FastAction) -> IllegalAction | None:
        kind, mask, target = fa
        ph = self.phase
        if ph == BOUT and kind == ATTACK and seat != self.defender and seat in self.throwers:
            return self.throw_in_refusal(seat, mask)
        if seat not in self.actors():
            if ph == BOUT and seat != self.defender and seat not in self.throwers:
                why = outsider_refusal(self, seat)
                if why is not None:
                    return why
            return self.waiting_refusal(seat) or IllegalAction.of("not_your_turn")
        if ph == LEAD:
            if seat != self.attacker:
                return IllegalAction.of("not_your_turn")
            if kind != ATTACK:
                return IllegalAction.of("must_lead")
            if mask & JOKERS_MASK:
                return IllegalAction.of("joker_lead")
            return self.lead_refusal(mask)
        if seat == self.defender:
            if kind == ATTACK:
                return IllegalAction.of("defender_attacks")
            if kind == PASS:
                return IllegalAction.of("defender_passes")
            if kind == COVER:
                return cover_refusal(self, mask, target)
            if kind in (TRANSFER, SHOW):
                return self.transfer_refusal(kind, mask)
            return IllegalAction.of("not_now")
        if kind in (COVER, TRANSFER, SHOW, TAKE):
            return IllegalAction.of("not_defender")
        return IllegalAction.of("not_now")

    def throw_in_refusal(self, seat: int, mask: int) -> IllegalAction | None:
        """A throw-in by one of the throwers: refused after their pass, or when it does not fit."""
        if self.passed >> seat & 1:
            return IllegalAction.of("passed")
        return fit_refusal(self, mask)

    def waiting_refusal(self, seat: int) -> IllegalAction | None:
        """Why a seat that may not act now must wait, beyond "it is not your turn"."""
        return None

    lead_refusal = one_rank_refusal

    def transfer_refusal(self, kind: int, mask: int) -> IllegalAction:
        return IllegalAction.of("no_transfer")

    # ------------------------------------------------------------------ what it does

    def apply_fast(self, seat: int, fa: FastAction, events: list[Event] | None = None) -> None:
        kind, mask, target = fa
        if kind == ATTACK:  # the kinds in the order a playout plays them most
            if self.phase == LEAD:
                self.lead(seat, mask, events)
            else:
                self.throw_in(seat, mask, events)
        elif kind == COVER:
            self.cover(seat, mask, target, events)
        elif kind == TAKE:
            self.take(seat, events)
        elif kind == PASS:
            self.pass_(seat, events)
        elif kind in (TRANSFER, SHOW):
            pass_attack_on(self, seat, kind, mask, events)
        elif kind == REDEAL:
            redeal(self, seat, events)
        if self.phase != OVER:
            played = self.actions_played + 1
            self.actions_played = played
            if played >= self.rules.max_actions:
                finish_move_cap(self, events)

    def start_bout(self, attacker: int, ev: list[Event] | None) -> None:
        begin_bout(self, attacker)

    lead = lay_lead

    def throw_in(self, seat: int, mask: int, ev: list[Event] | None) -> None:
        lay_throw_in(self, seat, mask, ev)
        self.settle(ev)

    def cover(self, seat: int, mask: int, target: int, ev: list[Event] | None) -> None:
        lay_cover(self, seat, mask, target, ev)
        self.settle(ev)

    def pass_(self, seat: int, ev: list[Event] | None) -> None:
        note_pass(self, seat, ev)
        self.settle(ev)

    def take(self, seat: int, ev: list[Event] | None) -> None:
        declare_take(self, seat, ev)
        self.settle(ev)

    def settle(self, ev: list[Event] | None) -> None:
        """End the bout when nobody is left to act: bito once everything is covered, the
        pick-up after a take."""
        if not self.taking and -1 in self.covers:
            return
        if open_throwers(self):
            return
        end_bout(self, not self.taking, ev)


class Perevodnoy(Podkidnoy, variant="perevodnoy"):
    """A game of perevodnoy: podkidnoy with the transfer (``docs/rules.md`` §4)."""

    __slots__ = ()

    offer_transfers = add_transfers

    def transfer_refusal(self, kind: int, mask: int) -> IllegalAction:
        return show_rule_refusal(self, kind) or transfer_refusal(self, kind, mask)
