"""The ``easy`` bot: play the cheapest card that does the job, never waste trumps early.

A card's cost is its rank, plus a premium for a trump and more for a joker. In order:

* circle stage 1 (``beat``): take the most valuable circle card it may beat;
* defending: show a trump or transfer with a non-trump when it can (it keeps its cover cards);
  otherwise cover with the cheapest card, but take instead of spending a high trump while the
  stock is still thick;
* leading: the cheapest rank, all its non-trump copies together;
* throwing in: the cheapest non-trump card of rank 10 or lower (anything non-trump once the stock
  is empty), else pass;
* a redeal (at tables that allow it) only for a lopsided hand without trumps to speak of
  (``redeal_if_weak``, which the searching bots use too).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engine.actions import Action
from games.engine.cards import SUITS, card_from_str, is_joker, rank_of, suit_of

TRUMP_PREMIUM = 20
JOKER_COST = 60
#: A trump this high is kept rather than spent while the stock still holds more than THICK_STOCK.
HIGH_TRUMP_RANK = 12
THICK_STOCK = 6
CHEAP_THROW_RANK = 10
#: At most this many trumps in a hand of five or six cards of one plain suit: demand a redeal.
REDEAL_MAX_TRUMPS = 1


def choose_easy(seat_view: Any, legal_actions: Sequence[Action], seed: str) -> Action:
    """The easy bot's choice (ties broken by ``seed``).

    >>> from games.engine.actions import Action
    >>> acts = [Action.parse(t) for t in ("take", "cover 7S>6S", "cover AH>6S")]
    >>> str(choose_easy(None, acts, "s"))
    'cover 7S>6S'
    """
    redeal = redeal_if_weak(seat_view, legal_actions)
    if redeal is not None:
        return redeal
    trump = _trump_suit(seat_view)
    stock = int(getattr(seat_view, "stock_count", 0) or 0)
    by_kind: dict[str, list[Action]] = {}
    for action in sorted(legal_actions, key=str):
        by_kind.setdefault(action.kind, []).append(action)

    def cost(card: int) -> int:
        if is_joker(card):
            return JOKER_COST
        return rank_of(card) + (TRUMP_PREMIUM if suit_of(card) == trump else 0)

    def total(action: Action) -> tuple[int, int]:
        return (max((cost(c) for c in action.cards), default=0), -len(action.cards))

    if "beat" in by_kind:
        return max(by_kind["beat"], key=lambda a: cost(a.target if a.target is not None else 0))
    if "show" in by_kind:
        return by_kind["show"][0]
    cheap_transfers = [
        a for a in by_kind.get("transfer", []) if all(cost(c) < TRUMP_PREMIUM for c in a.cards)
    ]
    if cheap_transfers:
        return min(cheap_transfers, key=total)
    if "cover" in by_kind:
        best = min(by_kind["cover"], key=lambda a: cost(a.cards[0]))
        card = best.cards[0]
        spends_high_trump = cost(card) >= TRUMP_PREMIUM + HIGH_TRUMP_RANK
        if spends_high_trump and stock > THICK_STOCK and "take" in by_kind:
            return by_kind["take"][0]
        return best
    attacks = by_kind.get("attack", [])
    if attacks and "pass" not in by_kind and "take" not in by_kind:
        return min(attacks, key=total)  # a lead: nothing to pass on
    throws = [
        a
        for a in attacks
        if all(cost(c) < TRUMP_PREMIUM for c in a.cards)
        and (stock == 0 or all(rank_of(c) <= CHEAP_THROW_RANK for c in a.cards))
    ]
    if throws:
        return min(throws, key=total)
    for kind in ("pass", "take"):
        if kind in by_kind:
            return by_kind[kind][0]
    choices = [a for a in legal_actions if a.kind != "redeal"] or list(legal_actions)
    return random.Random(seed).choice(sorted(choices, key=str))


def redeal_if_weak(seat_view: Any, legal_actions: Sequence[Action]) -> Action | None:
    """The legal redeal, when the hand is worth giving up: its five or six cards of one suit are
    not trumps and it holds at most ``REDEAL_MAX_TRUMPS`` trumps. Such a hand covers one suit
    only and has little to beat the rest with; five trumps, on the other hand, are kept.

    >>> from types import SimpleNamespace
    >>> def hand(*codes): return SimpleNamespace(trump_suit="S", hand=list(codes))
    >>> redeal = [Action.parse("redeal"), Action.parse("attack 6H")]
    >>> str(redeal_if_weak(hand("6H", "8H", "9H", "JH", "KH", "7C"), redeal))
    'redeal'
    >>> redeal_if_weak(hand("6S", "8S", "9S", "JS", "KS", "7C"), redeal) is None  # five trumps
    True
    >>> redeal_if_weak(hand("6H", "8H", "9H", "JH", "KS", "AS"), redeal) is None  # two trumps
    True
    """
    action = next((a for a in legal_actions if a.kind == "redeal"), None)
    if action is None:
        return None
    trump = _trump_suit(seat_view)
    cards = [c for c in map(card_from_str, getattr(seat_view, "hand", ())) if not is_joker(c)]
    trumps = sum(suit_of(c) == trump for c in cards)
    longest = max((sum(suit_of(c) == suit for c in cards) for suit in range(4) if suit != trump), default=0)
    return action if longest >= 5 and trumps <= REDEAL_MAX_TRUMPS else None


def _trump_suit(seat_view: Any) -> int:
    """The trump suit as 0..3 from a view (``None``/unknown: -1, no card counts as trump)."""
    suit = getattr(seat_view, "trump_suit", None)
    if isinstance(suit, int):
        return suit
    if isinstance(suit, str) and suit[:1].upper() in SUITS:
        return SUITS.index(suit[:1].upper())
    return -1
