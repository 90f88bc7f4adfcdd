"""Full game states that agree with everything one seat has seen: determinizations.

A search bot cannot play on from a view: the engine needs every hand and the stock. So it
guesses them, many times over: :class:`Determinizer` builds, once per decision, a template
:class:`games.engine.GameState` holding everything public (the table, counts, whose turn,
the bout's bookkeeping) and the seat's own hand, then :meth:`Determinizer.sample` deals the
unseen cards at random among the other hands, the stock and (for a player who does not
remember the discard by face) the discard, keeping the cards the seat knows a player holds
(:mod:`games.bots.knowledge`) in that player's hand.

The engine has no constructor "from a view", so the template is built here on top of its
public API: a dict in the :meth:`GameState.to_json` format, read by
:meth:`GameState.from_json`; samples are :meth:`GameState.clone` copies whose ``hands``,
``stock`` and ``discard`` are then dealt. The bout's bookkeeping that a view does not show is
rebuilt from the rules (the throwers, the attack limit) or from the history (who led the bout,
with how many cards, which trumps were shown); a thrower who is not among the actors is taken
to have passed.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.cards import RANK_GROUP, RED_JOKER, SUITS, card_from_str, cards_of, deck_cards, mask_of
from games.engine.rules import Rules
from games.engine.state import GameState

from .knowledge import Knowledge

# Engine phases (games.engine.state): the state format stores them as ints.
_LEAD, _BOUT, _BEAT_CHOICE = 0, 1, 2


class DeterminizeError(ValueError):
    """The view, rules and knowledge do not add up to a deck (wrong rules for the view)."""


def infer_rules(view: Any) -> Rules:
    """The table's rules as far as a view shows them (deck size by counting the cards; the
    options a view does not show keep their defaults). Pass the real rules when you have them."""
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


def _limit(rules: Rules, defender_cards: int, bito_done: bool) -> int:
    lim = min(6, defender_cards)
    if lim > 5 and not bito_done and rules.first_five:
        lim = 5
    return lim


def _throwers(rules: Rules, counts: list[int], attacker: int, defender: int) -> list[int]:
    """The seats allowed to throw in (as the engine rules them), attacker first."""
    n = len(counts)
    partner = (defender + 2) % 4 if rules.teams else -1
    if rules.throw_in == "all":
        ring = ((attacker + i) % n for i in range(n))
        return [t for t in ring if t not in (defender, partner) and counts[t]]
    out = [attacker] if counts[attacker] and attacker != defender else []
    after = next((t for t in ((defender + i) % n for i in range(1, n)) if counts[t]), -1)
    if after not in (-1, defender, partner, attacker):
        out.append(after)
    return out


class Determinizer:
    """Deals the cards ``view.viewer`` cannot see, consistently with what it knows."""

    def __init__(self, view: Any, rules: Rules, knowledge: Knowledge) -> None:
        self.me = me = int(view.viewer)
        self.n = n = int(view.players)
        counts = [int(c) for c in view.hand_counts]
        my_hand = mask_of(card_from_str(c) for c in view.hand)
        table = [(card_from_str(a), None if c is None else card_from_str(c)) for a, c in view.table]
        table_mask = mask_of(a for a, _ in table) | mask_of(c for _, c in table if c is not None)
        circle = mask_of(card_from_str(c) for c in view.circle)
        drawn = card_from_str(view.drawn) if view.drawn is not None else -1
        trump_card = card_from_str(view.trump_card) if view.trump_card is not None else -1
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
        self.need_discard = discard_count - kd.bit_count()
        self.need_stock = stock_count - (1 if trump_in_stock else 0)
        self.rest = cards_of(pool & ~taken)
        if len(self.rest) != sum(self.need) + self.need_discard + self.need_stock:
            raise DeterminizeError(
                f"{len(self.rest)} unseen cards for {sum(self.need)} in hands, "
                f"{self.need_discard} in the discard and {self.need_stock} in the stock"
            )
        self.trump_bottom = trump_card if trump_in_stock else -1
        self.my_hand = my_hand
        self.template = GameState.from_json(
            _state_dict(view, rules, knowledge, table, counts, center, drawn, trump_card)
        )
        self.template.hands[me] = my_hand

    def sample(self, rng: random.Random) -> GameState:
        """A fresh full state: the unseen cards dealt at random where they may be."""
        rest = self.rest[:]
        rng.shuffle(rest)
        s = self.template.clone()
        hands = s.hands
        i = 0
        for seat in range(self.n):
            k = self.need[seat]
            hands[seat] = self.known[seat] | mask_of(rest[i : i + k])
            i += k
        hands[self.me] = self.my_hand
        j = i + self.need_discard
        s.discard = self.known_discard | mask_of(rest[i:j])
        stock = rest[j:]
        if self.trump_bottom >= 0:
            stock.insert(0, self.trump_bottom)
        s.stock = stock
        s.seed = f"det{rng.getrandbits(32)}"
        return s


def _state_dict(
    view: Any,
    rules: Rules,
    kn: Knowledge,
    table: list[tuple[int, int | None]],
    counts: list[int],
    center: int,
    drawn: int,
    trump_card: int,
) -> dict[str, Any]:
    """The template state in the engine's JSON format (hidden cards left empty)."""
    from games.engine.cards import card_str

    awaiting = {int(k): v for k, v in view.awaiting.items()}
    actors = {int(a) for a in view.actors}
    n = len(counts)
    stage = int(view.stage)
    if stage == 1:
        phase = _BEAT_CHOICE
    elif "lead" in awaiting.values():
        phase = _LEAD
    else:
        phase = _BOUT
    attacker = -1 if view.attacker is None else int(view.attacker)
    defender = -1 if view.defender is None else int(view.defender)
    bito_done = int(view.discard_count) > 0
    covers = [c for _, c in table if c is not None]
    att = [a for a, _ in table]
    thr: list[int] = []
    cap = dstart = 0
    passed = 0
    rnd_order: list[int] = []
    rnd_pos = -1
    tranks = 0
    joker_covered = any(c >= RED_JOKER for c in covers)
    lead_size = kn.lead_size if kn.leader is not None else len(att)
    if defender >= 0 and attacker >= 0:
        thr = _throwers(rules, counts, attacker, defender)
        dstart = counts[defender] + (len(covers) if phase == _BOUT else 0)
        cap = _limit(rules, dstart, bito_done)
        if phase == _BOUT:
            if joker_covered and not rules.throw_in_after_joker:
                cap = len(att)
            if view.taking and stage == 2 and lead_size == 5 and cap > 5:
                cap = 5
            for c in att + covers:
                tranks |= RANK_GROUP[c]
            if stage == 2:
                rnd_order = [t for t in ((defender + i) % n for i in range(1, n)) if t in thr]
                turn = next(iter(awaiting), defender)
                rnd_pos = rnd_order.index(turn) if turn != defender and turn in rnd_order else -1
            else:
                for t in thr:
                    if t not in actors:
                        passed |= 1 << t
    out_mask = sum(1 << int(t) for t in view.out)

    def opt(c: int) -> str | None:
        return card_str(c) if c >= 0 else None

    return {
        "format": 1,
        "rules": rules.to_dict(),
        "seed": "determinized",
        "dealer": 0,
        "trump": SUITS.index(view.trump_suit[0].upper()),
        "attacker": attacker,
        "defender": defender,
        "leader": kn.leader if kn.leader is not None else attacker,
        "dstart": dstart,
        "cap": cap,
        "phase": phase,
        "passed": passed,
        "out_mask": out_mask,
        "nactions": kn.actions,
        "redeals": 0,
        "stage": stage,
        "s1turn": next(iter(awaiting)) if stage == 1 and awaiting else -1,
        "lead_size": lead_size if phase == _BOUT else 0,
        "rnd_pos": rnd_pos,
        "taking": bool(view.taking),
        "bito_done": bito_done,
        "opened": True,
        "joker_covered": joker_covered,
        "rnd_added": stage == 2 and None in (c for _, c in table),
        "stock": [],
        "att": [card_str(a) for a in att],
        "circle": list(view.circle),
        "trump_card": opt(trump_card),
        "center": opt(center),
        "drawn": opt(drawn),
        "first_card": view.opening_trump,
        "cov": [None if c is None else card_str(c) for _, c in table],
        "hands": [[] for _ in range(n)],
        "discard": [],
        "tranks": tranks,
        "shown": [card_str(c) for c in cards_of(kn.shown)] if phase == _BOUT else [],
        "places": [list(p) for p in view.places],
        "out_bout": [],
        "rnd_order": rnd_order,
        "thr": thr,
        "result": None,
    }
