"""``circle`` stage 1, collecting hands from a circle of face-up cards [004].

Eight cards lie face up in a circle, a ninth in the middle shows trump (a joker turned
up there joins the circle and the next card is turned instead) and the stock lies on
it.  From the dealer's left, clockwise, each player draws the top card: if it beats a
circle card it must beat one (the player chooses which, ``beat 9H>7H``) and both go to
the hand; if it beats nothing it joins the circle (a forced step, done inside
``apply``).  Nothing beats a joker in the circle.  When the stock is gone, the player
whose turn it is takes the trump card and beats with it if possible.  The circle's
leftovers are shuffled (seed ``f"{seed}/leftovers"``, input in card order) and dealt
one by one clockwise from that player; a player with no cards at that point gets all of
them instead (the first such player clockwise from that player: choice).  Then stage 2
begins: the bout rules of :mod:`.state` with ``stage == 2``.

Choices: a drawn card that beats exactly one circle card still waits for the player's
``beat`` (it is their move); players left without cards when stage 2 begins are out at
once, sharing the first place; ``first_attacker`` is honoured only for a deal that
starts in stage 2.
"""

from __future__ import annotations

from .cards import BEATEN_BY, RED_JOKER, deck_cards
from .events import Event
from .setup import Deal, deal_explicit, set_trump, start_play, to_card
from .shuffle import shuffled
from .state import BEAT_CHOICE, LEAD, OVER, GameState


def setup_circle(
    s: GameState, deal: Deal | None, forced: int | None, ev: list[Event] | None
) -> None:
    """Lay out stage 1 (seeded, or the circle, center and stock of ``deal``) and play the
    forced draws up to the first choice; a ``deal`` with ``stage=2`` starts stage 2."""
    if deal is not None and deal.stage == 2:
        deal_explicit(s, deal)
        if deal.trump is not None:
            s.stock = []
        s.stage = 1
        begin_stage2(s, ev, forced)
        return
    s.stage = 1
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
    s.s1turn = (s.dealer + 1) % s.n
    s.phase = BEAT_CHOICE
    advance(s, ev)


def _targets(s: GameState, card: int) -> int:
    mask = 0
    for c in s.circle:
        mask |= 1 << c
    return BEATEN_BY[(s.trump, s.rules.joker_beats)][card] & mask


def _offer(s: GameState, card: int, kind: str, ev: list[Event] | None) -> bool:
    """The player in turn shows ``card``: True when it must beat a circle card (the
    state then waits for ``beat``), else it joins the circle."""
    if ev is not None:
        ev.append(Event(kind, s.s1turn, (card,)))
    if _targets(s, card):
        s.drawn = card
        s.phase = BEAT_CHOICE
        return True
    s.circle.append(card)
    if ev is not None:
        ev.append(Event("to_circle", s.s1turn, (card,)))
    return False


def advance(s: GameState, ev: list[Event] | None) -> None:
    """Play forced draws until a player must choose, or deal the leftovers."""
    while s.stock:
        if _offer(s, s.stock.pop(), "turn_up", ev):
            return
        s.s1turn = (s.s1turn + 1) % s.n
    if s.center >= 0:
        card = s.center
        s.center = -1
        if _offer(s, card, "trump_taken", ev):
            return
    deal_leftovers(s, ev)


def beat(s: GameState, seat: int, target: int, ev: list[Event] | None) -> None:
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
    s.s1turn = (seat + 1) % s.n
    advance(s, ev)


def deal_leftovers(s: GameState, ev: list[Event] | None) -> None:
    """Shuffle what is left in the circle and deal it one by one clockwise from the player
    in turn (all of it to the first empty-handed player, if any); then stage 2."""
    n = s.n
    start = s.s1turn
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


def begin_stage2(s: GameState, ev: list[Event] | None, forced: int | None) -> None:
    """No stock any more: players without cards are out, then the lowest trump leads."""
    s.stage = 2
    s.phase = LEAD
    s.s1turn = -1
    empty = [t for t in range(s.n) if not s.hands[t]]
    if empty:
        s.places.append(empty)
        s.out_bout = empty
        for t in empty:
            s.out_mask |= 1 << t
            if ev is not None:
                ev.append(Event("out", t, count=1))
    if s._check_over(-1, ev):
        return
    start_play(s, forced)
    if ev is not None and s.phase != OVER:
        ev.append(Event("stage2", s.attacker))
