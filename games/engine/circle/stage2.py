"""``circle`` stage 2: playing out (``docs/rules.md`` §5 "Stage 2") [004].

Transfer Durak without a stock, with its own leads and throw-ins:

* a lead is 1 card, a pair and a single, or two pairs and a single, of different ranks;
* the transfer only after a single-card lead;
* throw-ins go round in turn: once the defender has covered everything (or takes), each
  thrower clockwise from the defender's left holding cards has one turn, keeps it until they
  pass, reach the limit or hold no card, then the defender covers the new cards; a round that adds
  nothing ends the bout in bito, and after a take one round runs before the pick-up;
* no sixth card after a taken 5-card lead (:func:`games.engine.bout.limits.no_sixth_card`);
* jokers: never led or thrown in; under ``joker_last="pass_on"`` a player holding only
  jokers leads one and the next player takes it at once; under ``defence_only`` that player's
  attack is skipped; if everybody left holds only jokers, the game is drawn.
"""

from __future__ import annotations

from ..actions import ATTACK, FastAction
from ..bout.cover import lay_cover
from ..bout.end import bout_over, finish
from ..bout.lead import begin_bout, lay_lead
from ..bout.limits import limit_refusal, no_sixth_card
from ..bout.play import PASS_ACTION, Perevodnoy
from ..bout.take import declare_take
from ..bout.throwers import add_throw_ins, fit_refusal, lay_throw_in
from ..bout.transfer import add_transfers, show_rule_refusal, transfer_refusal
from ..cards import JOKERS_MASK, cards_of
from ..errors import IllegalAction
from ..events import Event
from ..phases import AWAIT_COVER, AWAIT_LEAD, AWAIT_TAKE_MORE, AWAIT_THROW_IN, BOUT, OVER
from ..result import Result
from ..ring import next_holding
from .rounds import advance_round, start_round

_PLAIN = (1 << 52) - 1  # every card but the jokers

#: PAIRS[g] = the 2-card sub-patterns of a 4-bit rank group pattern ``g``.
PAIRS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sub for sub in range(1, 16) if sub & g == sub and sub.bit_count() == 2) for g in range(16)
)


def is_lead_shape(mask: int) -> bool:
    """Whether the cards of ``mask`` make a stage-2 lead: one card, a pair and a single, or
    two pairs and a single (each time of different ranks)."""
    counts = sorted((mask >> r4 & 15).bit_count() for r4 in range(0, 52, 4) if mask >> r4 & 15)
    return counts in ([1], [1, 2], [1, 2, 2])


def shaped_leads(plain: int, limit: int) -> list[FastAction]:
    """Every 1-, 3- and 5-card lead of the plain cards ``plain`` within ``limit``."""
    groups = []
    h = plain
    while h:
        r4 = ((h & -h).bit_length() - 1) & ~3
        groups.append((r4, (h >> r4) & 15))
        h &= ~(15 << r4)
    singles = [(r4, 1 << (r4 + b)) for r4, g in groups for b in range(4) if g >> b & 1]
    out: list[FastAction] = [(ATTACK, bit, -1) for _, bit in singles]
    pairs = [(r4, p << r4) for r4, g in groups for p in PAIRS[g]]
    if limit >= 3:
        out += [(ATTACK, p | bit, -1) for r4, p in pairs for sr, bit in singles if sr != r4]
    if limit >= 5:
        for i, (r1, p1) in enumerate(pairs):
            for r2, p2 in pairs[i + 1 :]:
                if r2 != r1:
                    pp = p1 | p2
                    out += [(ATTACK, pp | bit, -1) for sr, bit in singles if sr != r1 and sr != r2]
    return out


class CircleStage2(Perevodnoy, variant="circle", stage=2):
    """A game of ``circle`` in stage 2 (see the module docstring)."""

    __slots__ = ()
    one_rank_leads = False

    def actors(self) -> tuple[int, ...]:
        if self.phase == BOUT:  # the round's thrower, else the defender
            turn = self.round_position
            return (self.round_order[turn],) if turn >= 0 else (self.defender,)
        return () if self.phase == OVER else (self.attacker,)

    def awaiting(self) -> dict[int, str]:
        if self.phase == BOUT:
            if self.round_position < 0:
                return {self.defender: AWAIT_COVER}
            code = AWAIT_TAKE_MORE if self.taking else AWAIT_THROW_IN
            return {self.round_order[self.round_position]: code}
        return {} if self.phase == OVER else {self.attacker: AWAIT_LEAD}

    def first_awaited(self) -> int:
        if self.phase == BOUT:
            turn = self.round_position
            return self.round_order[turn] if turn >= 0 else self.defender
        return -1 if self.phase == OVER else self.attacker

    # ------------------------------------------------------------------ what is legal

    def leads(self, hand: int) -> list[FastAction]:
        plain = hand & _PLAIN
        if plain:
            return shaped_leads(plain, self.attack_limit)
        if self.rules.joker_last == "pass_on":  # only jokers: one must be led
            return [(ATTACK, 1 << c, -1) for c in cards_of(hand & JOKERS_MASK)]
        return []

    def lead_ok(self, mask: int) -> bool:
        k = mask.bit_count()
        if not mask or k > self.attack_limit:
            return False
        if mask & JOKERS_MASK:
            only_jokers = not self.hands[self.attacker] & _PLAIN
            return k == 1 and only_jokers and self.rules.joker_last == "pass_on"
        return is_lead_shape(mask)

    def defence(self, hand: int) -> list[FastAction]:
        if self.round_position >= 0:
            return []
        return super().defence(hand)

    def offer_transfers(self, hand: int, out: list[FastAction]) -> None:
        if self.lead_size == 1:
            add_transfers(self, hand, out)

    def throw_ins(self, seat: int) -> list[FastAction]:
        if self.round_position < 0 or self.round_order[self.round_position] != seat:
            return []
        out: list[FastAction] = []
        add_throw_ins(self, self.hands[seat], out)
        out.append(PASS_ACTION)
        return out

    # ------------------------------------------------------------------ why not

    def throw_in_refusal(self, seat: int, mask: int) -> IllegalAction | None:
        if self.round_position < 0:
            return IllegalAction.of("round_not_open")
        if self.round_order[self.round_position] != seat:
            return IllegalAction.of("not_your_round_turn")
        return fit_refusal(self, mask)

    def waiting_refusal(self, seat: int) -> IllegalAction | None:
        if self.phase == BOUT and seat == self.defender:
            return IllegalAction.of("round_under_way")
        return None

    def lead_refusal(self, mask: int) -> IllegalAction:
        if is_lead_shape(mask):
            return limit_refusal(self)
        return IllegalAction.of("circle_lead")

    def transfer_refusal(self, kind: int, mask: int) -> IllegalAction:
        refused = show_rule_refusal(self, kind)
        if refused is not None:
            return refused
        if self.lead_size != 1:
            return IllegalAction.of("transfer_single_lead")
        return transfer_refusal(self, kind, mask)

    # ------------------------------------------------------------------ what it does

    def start_bout(self, attacker: int, ev: list[Event] | None) -> None:
        hands = self.hands
        if not hands[attacker] & _PLAIN:
            alive = tuple(t for t in range(self.players) if hands[t])
            if all(not hands[t] & _PLAIN for t in alive):
                finish(self, Result(self.places, draw=True, reason="jokers_only", drawn_seats=alive), ev)
                return
            if self.rules.joker_last == "defence_only":
                while not hands[attacker] & _PLAIN:
                    if ev is not None:
                        ev.append(Event("skip", attacker))
                    attacker = next_holding(hands, attacker)
        begin_bout(self, attacker)

    def lead(self, seat: int, mask: int, ev: list[Event] | None) -> None:
        if not mask & JOKERS_MASK:
            lay_lead(self, seat, mask, ev)
            return
        self.opened = True  # pass_on: the next player just takes the joker
        d = self.defender
        self.hands[seat] ^= mask
        self.hands[d] |= mask
        if ev is not None:
            ev.append(Event("attack", seat, tuple(cards_of(mask)), count=1))
            ev.append(Event("took", d, count=1))
        nxt = next_holding(self.hands, d)
        bout_over(self, nxt if nxt >= 0 else d, ev)

    def throw_in(self, seat: int, mask: int, ev: list[Event] | None) -> None:
        lay_throw_in(self, seat, mask, ev)
        self.round_added = True
        fits = self.table_ranks if self.rules.throw_in_waits == "holders" else -1  # earlier rule
        if len(self.attack_cards) >= self.attack_limit or not self.hands[seat] & fits:
            advance_round(self, ev)

    def cover(self, seat: int, mask: int, target: int, ev: list[Event] | None) -> None:
        lay_cover(self, seat, mask, target, ev)
        if -1 not in self.covers:
            start_round(self, ev)

    def pass_(self, seat: int, ev: list[Event] | None) -> None:
        if ev is not None:
            ev.append(Event("pass", seat))
        advance_round(self, ev)

    def take(self, seat: int, ev: list[Event] | None) -> None:
        declare_take(self, seat, ev)
        no_sixth_card(self)
        start_round(self, ev)
