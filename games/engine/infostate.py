"""One seat's information set: what the seat knows, and full states that agree with it.

A search bot cannot play on from a view: the engine needs every hand and the stock. It asks
the game for states consistent with what its seat has seen (as OpenSpiel's ISMCTS asks a game
to ``resample_from_infostate``), so no bot holds a copy of any rule or of the snapshot format.

:class:`InfoState` reads the seat's :class:`~games.engine.visibility.View`, the table's
:class:`~games.engine.rules.Rules` and the public history (the events every player saw, as
:class:`~games.engine.events.Event` objects or their ``to_dict()`` form), and builds once a
template state holding everything public (the table, counts, whose turn, the bout's
bookkeeping, rebuilt by the engine's own rules) and the seat's hand; :meth:`InfoState.sample`
then deals the unseen cards at random among the other hands, the stock and (for a seat that
does not remember the discard by face) the discard, keeping the cards the seat knows a
player holds in that player's hand.

What leaks through public play (:func:`read_knowledge`): a taker picks up cards everyone saw
on the table; whoever draws the stock's last card holds the turned-up trump (in a whole-deck
deal, the dealer does); the first attacker holds the opening trump that was shown; in
``circle`` stage 1 every card a player collects was face up; a careful player also remembers
which cards went to the discard. History may be missing or partial (a bot asked with the view
alone): the knowledge is then smaller, and it is a belief: the sampler keeps only the known
cards that still fit the view. A thrower who is not among the actors is taken to have passed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .bout.limits import bout_limit, start_hand
from .bout.throwers import throwers_for
from .cards import RED_JOKER, SUITS, card_from_str, cards_of, deck_cards, mask_of
from .circle.rounds import round_order_for
from .events import Event
from .phases import AWAIT_LEAD, BEAT_CHOICE, BOUT, LEAD
from .rules import Rules
from .state import GameState
from .visibility import View

#: An event as the engine returns it, or as ``Event.to_dict()`` stores it.
EventLike = Event | Mapping[str, Any]


class InfoStateError(ValueError):
    """The view, rules and knowledge do not add up to a deck (wrong rules for the view)."""


def rules_from_view(view: View) -> Rules:
    """The table's rules as far as a view shows them (the deck size by counting the cards;
    the options a view does not show keep their defaults). Pass the real rules when you have
    them."""
    total = (
        sum(view.hand_counts)
        + view.stock_count
        + view.discard_count
        + sum(1 if c is None else 2 for _, c in view.table)
        + len(view.circle)
        + (1 if view.drawn is not None else 0)
    )
    if view.variant == "circle":
        if view.stage == 1 and view.trump_card is not None and view.drawn != view.trump_card:
            total += 1  # the trump card still lies under the stock
        return Rules.for_variant("circle", players=view.players, jokers=2 if total > 52 else 0)
    deck = min((d for d in (24, 36, 52) if d >= total), default=52)
    return Rules.for_variant(view.variant, players=view.players, deck=deck)


@dataclass(slots=True)
class Knowledge:
    """The seat ``me``'s knowledge: ``known[s]`` is the mask of cards seat ``s`` surely holds
    (never set for ``me``: its own hand is in the view); ``discard`` the discard by face
    (only for a careful player, else 0); ``leader``/``lead_size``/``shown`` describe the bout
    under way (who led it, with how many cards, which trumps were shown for a transfer);
    ``actions`` counts the actions of the history."""

    me: int
    known: list[int]
    discard: int = 0
    leader: int | None = None
    lead_size: int = 0
    shown: int = 0
    actions: int = 0


def _event(e: EventLike) -> Event:
    return e if isinstance(e, Event) else Event.from_dict(e)


def _opt_card(text: str | None) -> int:
    return -1 if text is None else card_from_str(text)


def read_knowledge(view: View, history: Iterable[EventLike] | None, careful: bool) -> Knowledge:
    """Replay ``history`` from ``view.viewer``'s seat; ``careful`` keeps the discard by face
    (a careful player's memory), otherwise only its size (in the view) is known."""
    if view.viewer is None:
        raise InfoStateError("a spectator's view belongs to no seat")
    me = int(view.viewer)
    n = int(view.players)
    events = [_event(e) for e in history or ()]
    # Only what happened since the last redeal concerns the hands in play.
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind == "redeal":
            events = events[i + 1 :]
            break
    trump_card = _opt_card(view.trump_card)
    opening = _opt_card(view.opening_trump)
    circle = view.variant == "circle"
    # The stock's size when the history began: what it is now plus everything drawn since.
    stock = int(view.stock_count) + sum(e.count for e in events if e.kind == "draw")
    known = [0] * n
    whole_deck = history is not None and stock == 0 and not circle
    if whole_deck and trump_card >= 0 and view.dealer is not None:
        # A whole-deck deal (no stock from the start): the last card dealt, the dealer's, showed
        # the trump and stayed in hand. Without the history an empty stock proves nothing.
        known[int(view.dealer)] |= 1 << trump_card
    table = 0
    discard = 0
    leader: int | None = None
    lead_size = 0
    shown = 0
    first_lead_seen = False
    for e in events:
        k = e.kind
        seat = e.seat
        cards = mask_of(e.cards)
        if k in ("attack", "transfer", "cover"):
            if seat is None:
                continue
            if k == "attack" and e.count == 1:
                if not first_lead_seen and opening >= 0 and not circle:
                    known[seat] |= 1 << opening
                first_lead_seen = True
                leader, lead_size, shown = seat, len(e.cards), 0
            known[seat] &= ~cards
            table |= cards
        elif k == "show" and seat is not None:
            known[seat] |= cards
            shown |= cards
        elif k == "took" and seat is not None:
            known[seat] |= table
            table = 0
        elif k == "bito":
            discard |= table
            table = 0
        elif k == "draw" and seat is not None:
            before = stock
            stock -= e.count
            if before > 0 and stock <= 0 and trump_card >= 0 and not circle:
                known[seat] |= 1 << trump_card
        elif k == "beat" and seat is not None:
            known[seat] |= cards | (1 << e.target if e.target is not None else 0)
        elif k == "stage2" and seat is not None and opening >= 0:
            known[seat] |= 1 << opening
            first_lead_seen = True
    if table == 0 and not view.table:
        leader, lead_size, shown = None, 0, 0
    known[me] = 0
    return Knowledge(
        me=me,
        known=known,
        discard=discard if careful else 0,
        leader=leader,
        lead_size=lead_size,
        shown=shown,
        actions=len(events),
    )


class InfoState:
    """The information set of ``view.viewer``: :meth:`sample` deals what the seat cannot see.

    ``rules`` are inferred from the view when not given (:func:`rules_from_view`);
    ``remember_discard`` keeps the discard by face.

    >>> from games.engine import Rules, new_game
    >>> s = new_game(Rules(), seed="info")
    >>> info = InfoState(s.view(0), Rules(), [])
    >>> sample = info.sample(random.Random(1))
    >>> sample.hands[0] == s.hands[0], sample.legal_fast(0) == s.legal_fast(0)
    (True, True)
    >>> info.unknown_stock, info.unknown_discard
    (23, 0)
    """

    def __init__(
        self,
        view: View,
        rules: Rules | None = None,
        history: Iterable[EventLike] | None = None,
        *,
        remember_discard: bool = True,
    ) -> None:
        self.rules = rules = rules or rules_from_view(view)
        self.knowledge = knowledge = read_knowledge(view, history, remember_discard)
        self.seat = me = knowledge.me
        self.players = n = int(view.players)
        counts = [int(c) for c in view.hand_counts]
        my_hand = mask_of(card_from_str(c) for c in view.hand)
        table = [(card_from_str(a), None if c is None else card_from_str(c)) for a, c in view.table]
        table_mask = mask_of(a for a, _ in table) | mask_of(c for _, c in table if c is not None)
        circle = mask_of(card_from_str(c) for c in view.circle)
        drawn = _opt_card(view.drawn)
        trump_card = _opt_card(view.trump_card)
        stage1 = view.variant == "circle" and view.stage == 1
        center = trump_card if stage1 and drawn != trump_card else -1
        stock_count = int(view.stock_count)
        trump_in_stock = not stage1 and stock_count > 0 and trump_card >= 0
        visible = my_hand | table_mask | circle
        if drawn >= 0:
            visible |= 1 << drawn
        if center >= 0:
            visible |= 1 << center
        if trump_in_stock:
            visible |= 1 << trump_card
        pool = mask_of(deck_cards(rules.deck, rules.jokers)) & ~visible
        # What the seat knows, kept only where it still fits the view.
        known = [0] * n
        taken = 0
        for s in range(n):
            if s == me:
                continue
            k = knowledge.known[s] & pool & ~taken
            if k.bit_count() > counts[s]:
                k = 0
            known[s] = k
            taken |= k
        discard_count = int(view.discard_count)
        kd = knowledge.discard & pool & ~taken
        if kd.bit_count() > discard_count:
            kd = 0
        taken |= kd
        self.known = known
        self.known_discard = kd
        self.need = [0 if s == me else counts[s] - known[s].bit_count() for s in range(n)]
        #: How many discarded cards, and how many stock cards, the seat cannot name.
        self.unknown_discard = discard_count - kd.bit_count()
        self.unknown_stock = stock_count - (1 if trump_in_stock else 0)
        self.rest = cards_of(pool & ~taken)
        if len(self.rest) != sum(self.need) + self.unknown_discard + self.unknown_stock:
            raise InfoStateError(
                f"{len(self.rest)} unseen cards for {sum(self.need)} in hands, "
                f"{self.unknown_discard} in the discard and {self.unknown_stock} in the stock"
            )
        self.trump_bottom = trump_card if trump_in_stock else -1
        self.my_hand = my_hand
        self.template = _template(view, rules, knowledge, table, counts, center, drawn, trump_card)
        self.template.hands[me] = my_hand

    def sample(self, rng: random.Random) -> GameState:
        """A fresh full state: the unseen cards dealt at random where they may be."""
        rest = self.rest[:]
        rng.shuffle(rest)
        s = self.template.clone()
        hands = s.hands
        i = 0
        for seat in range(self.players):
            k = self.need[seat]
            hands[seat] = self.known[seat] | mask_of(rest[i : i + k])
            i += k
        hands[self.seat] = self.my_hand
        j = i + self.unknown_discard
        s.discard = self.known_discard | mask_of(rest[i:j])
        stock = rest[j:]
        if self.trump_bottom >= 0:
            stock.insert(0, self.trump_bottom)
        s.stock = stock
        s.seed = f"det{rng.getrandbits(32)}"
        return s


def _template(
    view: View,
    rules: Rules,
    kn: Knowledge,
    table: list[tuple[int, int | None]],
    counts: list[int],
    center: int,
    drawn: int,
    trump_card: int,
) -> GameState:
    """Everything public as a state, the hidden cards left out; the bout's bookkeeping that a
    view does not show is rebuilt from the rules and the history."""
    awaiting = {int(k): v for k, v in view.awaiting.items()}
    actors = {int(a) for a in view.actors}
    stage = int(view.stage)
    if stage == 1:
        phase = BEAT_CHOICE
    elif AWAIT_LEAD in awaiting.values():
        phase = LEAD
    else:
        phase = BOUT
    covers = [-1 if c is None else c for _, c in table]
    s = GameState.class_for(rules, stage)(
        rules,
        "determinized",
        int(view.dealer or 0),
        trump_suit=SUITS.index(view.trump_suit[0].upper()),
        trump_card=trump_card,
        hands=[0] * len(counts),
        attack_cards=[a for a, _ in table],
        covers=covers,
        attacker=-1 if view.attacker is None else int(view.attacker),
        defender=-1 if view.defender is None else int(view.defender),
        phase=phase,
        taking=bool(view.taking),
        bito_done=int(view.discard_count) > 0,
        places=[list(p) for p in view.places],
        out_mask=mask_of(int(t) for t in view.out),
        actions_played=kn.actions,
        opened=True,
        joker_covered=any(c >= RED_JOKER for c in covers),
        stage=stage,
        circle=[card_from_str(c) for c in view.circle],
        center=center,
        drawn=drawn,
        stage1_turn=next(iter(awaiting)) if stage == 1 and awaiting else -1,
        opening_trump=_opt_card(view.opening_trump),
    )
    s.leader = kn.leader if kn.leader is not None else s.attacker
    if phase == BOUT:
        s.lead_size = kn.lead_size if kn.leader is not None else len(table)
        s.shown = kn.shown
    if s.defender >= 0 and s.attacker >= 0:
        s.throwers = throwers_for(rules, counts, s.attacker, s.defender)
        s.defender_start = start_hand(counts[s.defender], covers)
        s.attack_limit = bout_limit(s)
        if phase == BOUT:
            if stage == 2:
                s.round_order = round_order_for(s.defender, len(counts), s.throwers)
                turn = next(iter(awaiting), s.defender)
                in_round = turn != s.defender and turn in s.round_order
                s.round_position = s.round_order.index(turn) if in_round else -1
                s.round_added = -1 in covers
            else:
                s.passed = mask_of(t for t in s.throwers if t not in actors)
    return s
