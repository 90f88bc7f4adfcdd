"""``circle`` stage 1: collecting hands from a circle of face-up cards (``docs/rules.md`` §5
"Stage 1") [004].

Eight cards lie face up in a circle, a ninth in the middle shows trump (a joker turned up
there joins the circle and the next card is turned instead) and the stock lies on it. From
the dealer's left, clockwise, each player draws the top card: if it beats a circle card it
must beat one (the player chooses which, ``beat 9H>7H``) and both go to the hand; if it beats
nothing it joins the circle (a forced step, played at once). Nothing beats a joker in the
circle. When the stock is gone, the player whose turn it is takes the trump card and beats
with it if possible. The circle's leftovers are shuffled (seed ``f"{seed}/leftovers"``, input
in card order) and dealt one by one clockwise from that player; a player with no cards at that
point gets all of them instead (the first such player clockwise from that player: choice).
Then stage 2 begins (:mod:`.stage2`): players still without cards are out at once, sharing the
first place, and the lowest trump leads.

Choices: a drawn card that beats exactly one circle card still waits for the player's
``beat`` here (the live site plays that forced beat at once: ``play.services.turn.
play_forced``); ``first_attacker`` is honoured only for a deal that starts in
stage 2.
"""

from __future__ import annotations

from ..actions import BEAT, FastAction
from ..bout.end import check_over, finish_move_cap
from ..cards import BEATEN_BY, RED_JOKER, card_label, deck_cards
from ..data import GameData
from ..deal import Deal, deal_explicit, set_trump, start_play, to_card
from ..errors import IllegalAction
from ..events import Event
from ..phases import AWAIT_BEAT, BEAT_CHOICE, LEAD, OVER
from ..shuffle import shuffled
from ..state import GameState
from .stage2 import CircleStage2


class CircleStage1(GameState, variant="circle", stage=1):
    """A game of ``circle`` in stage 1: the drawn card's owner chooses which circle card it
    beats; stage 2 begins when the leftovers are dealt."""

    __slots__ = ()
    one_rank_leads = False

    def actors(self) -> tuple[int, ...]:
        return (self.stage1_turn,)

    def awaiting(self) -> dict[int, str]:
        return {self.stage1_turn: AWAIT_BEAT}

    def legal_fast(self, seat: int) -> list[FastAction]:
        if seat != self.stage1_turn:
            return []
        drawn = self.drawn
        targets = BEATEN_BY[(self.trump_suit, self.rules.joker_beats)][drawn]
        return [(BEAT, 1 << drawn, c) for c in self.circle if targets >> c & 1]

    def allows(self, seat: int, fa: FastAction) -> bool:
        return fa in self.legal_fast(seat)

    def refusal(self, seat: int, fa: FastAction) -> IllegalAction:
        kind, mask, target = fa
        if seat != self.stage1_turn:
            return IllegalAction.of("not_your_turn")
        if kind != BEAT:
            return IllegalAction.of("must_beat")
        if mask != 1 << self.drawn:
            return IllegalAction.of("not_drawn")
        if target not in self.circle:
            return IllegalAction.of("not_in_circle")
        return IllegalAction.of("does_not_beat", cover=card_label(self.drawn), attack=card_label(target))

    def apply_fast(self, seat: int, fa: FastAction, events: list[Event] | None = None) -> None:
        beat(self, seat, fa[2], events)
        if self.phase != OVER:
            self.actions_played += 1
            if self.actions_played >= self.rules.max_actions:
                finish_move_cap(self, events)

    def start_bout(self, attacker: int, ev: list[Event] | None) -> None:
        raise RuntimeError("circle stage 1 has no bouts: stage 2 starts them")

    def draw_on(self, ev: list[Event] | None) -> None:
        advance(self, ev)


def begin_stage1(s: GameData, deal: Deal | None, forced: int | None, ev: list[Event] | None) -> None:
    """Lay out stage 1 (seeded, or the circle, center and stock of ``deal``) and play the
    forced draws up to the first choice; a ``deal`` with ``stage=2`` starts stage 2."""
    if deal is not None and deal.stage == 2:
        deal_explicit(s, deal)
        if deal.trump is not None:
            s.stock = []
        begin_stage2(s, ev, forced)
        return
    s.stage = 1
    s.__class__ = CircleStage1
    if deal is None:
        order = shuffled(deck_cards(52, s.rules.jokers), s.seed)
        k = 8
        while order[k] >= RED_JOKER:
            k += 1
        s.circle = order[:k]
        center = order[k]
        s.stock = order[k + 1 :][::-1]
    else:
        if deal.circle is None or deal.center is None:
            raise ValueError("a circle deal needs circle cards and a center card")
        s.circle = [to_card(c) for c in deal.circle]
        center = to_card(deal.center)
        s.stock = [to_card(c) for c in deal.stock][::-1]
        s.discard = 0
        every = [*s.circle, center, *s.stock]
        if len(set(every)) != len(every):
            raise ValueError("a card is dealt twice")
        if center >= RED_JOKER:
            raise ValueError("a joker cannot be the trump card")
    s.center = center
    s.trump_card = center
    set_trump(s, center & 3)
    s.stage1_turn = (s.dealer + 1) % s.players
    s.phase = BEAT_CHOICE
    advance(s, ev)


def _targets(s: GameData, card: int) -> int:
    mask = 0
    for c in s.circle:
        mask |= 1 << c
    return BEATEN_BY[(s.trump_suit, s.rules.joker_beats)][card] & mask


def _offer(s: GameData, card: int, kind: str, ev: list[Event] | None) -> bool:
    """The player in turn shows ``card``: True when it must beat a circle card (the
    state then waits for ``beat``), else it joins the circle."""
    if ev is not None:
        ev.append(Event(kind, s.stage1_turn, (card,)))
    if _targets(s, card):
        s.drawn = card
        s.phase = BEAT_CHOICE
        return True
    s.circle.append(card)
    if ev is not None:
        ev.append(Event("to_circle", s.stage1_turn, (card,)))
    return False


def advance(s: GameData, ev: list[Event] | None) -> None:
    """Play forced draws until a player must choose, or deal the leftovers."""
    while s.stock:
        if _offer(s, s.stock.pop(), "turn_up", ev):
            return
        s.stage1_turn = (s.stage1_turn + 1) % s.players
    if s.center >= 0:
        card = s.center
        s.center = -1
        if _offer(s, card, "trump_taken", ev):
            return
    deal_leftovers(s, ev)


def beat(s: GameData, seat: int, target: int, ev: list[Event] | None) -> None:
    """The drawn card beats ``target``: both go to the player's hand."""
    card = s.drawn
    s.hands[seat] |= (1 << card) | (1 << target)
    s.circle.remove(target)
    s.drawn = -1
    if ev is not None:
        ev.append(Event("beat", seat, (card,), target))
    if card == s.trump_card:
        deal_leftovers(s, ev)
        return
    s.stage1_turn = (seat + 1) % s.players
    advance(s, ev)


def deal_leftovers(s: GameData, ev: list[Event] | None) -> None:
    """Shuffle what is left in the circle and deal it one by one clockwise from the player
    in turn (all of it to the first empty-handed player, if any); then stage 2."""
    n = s.players
    start = s.stage1_turn
    cards = shuffled(sorted(s.circle), f"{s.seed}/leftovers")
    s.circle = []
    empty = [t for t in ((start + i) % n for i in range(n)) if not s.hands[t]]
    counts = [0] * n
    if empty:
        for c in cards:
            s.hands[empty[0]] |= 1 << c
        counts[empty[0]] = len(cards)
    else:
        for i, c in enumerate(cards):
            t = (start + i) % n
            s.hands[t] |= 1 << c
            counts[t] += 1
    if ev is not None:
        for t in range(n):
            if counts[t]:
                ev.append(Event("leftovers", t, count=counts[t]))
    begin_stage2(s, ev, None)


def begin_stage2(s: GameData, ev: list[Event] | None, forced: int | None) -> None:
    """No stock any more: players without cards are out, then the lowest trump leads."""
    s.stage = 2
    s.__class__ = CircleStage2
    s.phase = LEAD
    s.stage1_turn = -1
    empty = tuple(t for t in range(s.players) if not s.hands[t])
    if empty:
        s.places.append(list(empty))
        s.out_this_bout = empty
        for t in empty:
            s.out_mask |= 1 << t
            if ev is not None:
                ev.append(Event("out", t, count=1))
    if check_over(s, -1, ev):
        return
    start_play(s, forced)
    if ev is not None and s.phase != OVER:
        ev.append(Event("stage2", s.attacker))
