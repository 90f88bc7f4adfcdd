"""The planning heuristic: the ``medium`` bot's search policy and the playouts of the ``strong``
search.

Where ``easy`` looks at one card at a time, the heuristic plans the whole answer:

* defending, it first asks whether it can cover *every* attack card (a greedy matching,
  the hardest attack card first, each with its cheapest beater); if not it takes at once
  instead of opening more ranks to throw-ins. It takes, too, when covering would spend high
  trumps (or two trumps) on a small table while the stock is thick. A free transfer (a shown
  trump) or one with a plain card is preferred to any cover;
* leading, it plays its cheapest rank with every plain copy of it (two sixes go together),
  and trumps only when nothing else is left; once the stock is empty a multi-card lead is
  worth more, since every card shed brings the end nearer;
* throwing in, it dumps cheap plain cards on a defender who takes, and otherwise only cards
  it does not need (low plain cards while the stock lasts, any plain card after);
* it waits (passes) while the defender still has cards to answer: a throw-in after the cover
  knows more.

On its own the heuristic only draws level with ``easy`` (0.509 over 2,000 games), so the
``medium`` level (:mod:`.medium`) runs the ``strong`` search with a small budget on top of it.

The heuristic reads only the seat's own hand and public facts (table, counts, trump, stock
size), so :func:`heuristic_move` is safe to call on a determinized state for the seat that
owns it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engine.actions import ATTACK, BEAT, COVER, PASS, SHOW, TAKE, TRANSFER, FastAction
from games.engine.cards import ALL_CARDS, RED_JOKER, SUIT_MASK, SUITED_MASK, cards_of
from games.engine.state import GameState

TRUMP_BONUS = 13
JOKER_VALUE = 40
#: While the stock holds more than this, a defender keeps its high trumps for later.
THICK_STOCK = 6
HIGH_TRUMP_RANK = 12
CHEAP_THROW_RANK = 10
TAKER_THROW_RANK = 11


def card_value(card: int, trump: int) -> int:
    """How much a card is worth keeping: its rank, trumps above every plain card, jokers top."""
    if card >= RED_JOKER:
        return JOKER_VALUE
    rank = (card >> 2) + 2
    return rank + TRUMP_BONUS if card & 3 == trump else rank


#: VALUES[trump][card] = card_value(card, trump), for the hot loops of the playouts.
VALUES: tuple[tuple[int, ...], ...] = tuple(
    tuple(card_value(c, t) for c in range(ALL_CARDS)) for t in range(4)
)


def _low_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def cover_plan(s: GameState, hand: int) -> list[tuple[int, int]] | None:
    """A way to cover every uncovered attack card, as (cover, attack) pairs, or None.

    Greedy: the most valuable attack card first, each with its cheapest beater left.
    """
    vals = VALUES[s.trump_suit]
    beaters = s.beaters
    covers = s.covers
    todo = [a for i, a in enumerate(s.attack_cards) if covers[i] < 0]
    if len(todo) > 1:
        todo.sort(key=vals.__getitem__, reverse=True)
    plan = []
    left = hand
    for a in todo:
        options = left & beaters[a]
        if not options:
            return None
        best = -1
        best_value = 99
        while options:
            low = options & -options
            c = low.bit_length() - 1
            if vals[c] < best_value:
                best, best_value = c, vals[c]
            options ^= low
        plan.append((best, a))
        left &= ~(1 << best)
    return plan


def heuristic_move(s: GameState, seat: int, legal: Sequence[FastAction]) -> FastAction:
    """The heuristic's choice among ``legal`` (fast actions of ``seat`` in ``s``)."""
    if len(legal) == 1:
        return legal[0]
    vals = VALUES[s.trump_suit]
    stock = len(s.stock)
    kinds = {f[0] for f in legal}
    if BEAT in kinds:
        return max(legal, key=lambda f: vals[f[2]])
    if TAKE in kinds or COVER in kinds:
        return _defend(s, seat, legal, kinds, stock, vals)
    if PASS not in kinds:
        return _lead(s, seat, legal, stock, vals)
    return _throw(s, legal, stock, vals)


def _defend(
    s: GameState,
    seat: int,
    legal: Sequence[FastAction],
    kinds: set[int],
    stock: int,
    vals: tuple[int, ...],
) -> FastAction:
    if SHOW in kinds:
        return next(f for f in legal if f[0] == SHOW)
    if TRANSFER in kinds:
        plain = [f for f in legal if f[0] == TRANSFER and max(vals[c] for c in cards_of(f[1])) < 15]
        if plain:
            return min(plain, key=lambda f: f[1].bit_count())
    take = next((f for f in legal if f[0] == TAKE), None)
    plan = cover_plan(s, s.hands[seat])
    if plan is None:
        if take is not None:
            return take
        return min((f for f in legal if f[0] == COVER), key=lambda f: vals[_low_card(f[1])])
    trumps_used = 0
    high = False
    for c, _ in plan:
        v = vals[c]
        if v > TRUMP_BONUS + 1:
            trumps_used += 1
            high = high or v >= HIGH_TRUMP_RANK + TRUMP_BONUS
    if take is not None and stock > THICK_STOCK and (high or trumps_used >= 2) and len(s.attack_cards) <= 2:
        return take
    cover, attack = plan[0]
    want = (COVER, 1 << cover, attack)
    if want in legal:
        return want
    return min((f for f in legal if f[0] == COVER), key=lambda f: vals[_low_card(f[1])])


def plain_lead(s: GameState, seat: int) -> FastAction:
    """The lead where any one-rank set within the limit is a lead (``s.one_rank_leads``),
    straight from the hand: the cheapest plain rank with all its copies that fit the limit,
    else the lowest trump."""
    vals = VALUES[s.trump_suit]
    shed = 4 if not s.stock else 2
    hand = s.hands[seat] & SUITED_MASK
    best: FastAction = (ATTACK, hand & -hand, -1)
    best_score = 999
    kept = KEPT[min(s.attack_limit, 4)]
    h = hand & ~SUIT_MASK[s.trump_suit]
    while h:
        r4 = ((h & -h).bit_length() - 1) & ~3
        nibble = kept[h >> r4 & 15]
        h &= ~(15 << r4)
        score = vals[r4 + nibble.bit_length() - 1] - shed * (nibble.bit_count() - 1)
        if score < best_score:
            best, best_score = (ATTACK, nibble << r4, -1), score
    return best


def _lowest_bits(nibble: int, cap: int) -> int:
    """The ``cap`` lowest set bits of ``nibble``."""
    out = 0
    while nibble and cap:
        low = nibble & -nibble
        out |= low
        nibble ^= low
        cap -= 1
    return out


#: KEPT[cap][nibble]: the copies of one rank (a nibble of the hand) that a lead of at most
#: ``cap`` cards keeps, the lowest first; a table because every playout lead asks it.
KEPT = tuple(tuple(_lowest_bits(n, cap) for n in range(16)) for cap in range(5))


def _lead(
    s: GameState, seat: int, legal: Sequence[FastAction], stock: int, vals: tuple[int, ...]
) -> FastAction:
    """The cheapest rank, with every plain copy of it (within the attack limit)."""
    shed = 4 if stock == 0 else 2
    if s.one_rank_leads and s.hands[seat] & SUITED_MASK:
        best = plain_lead(s, seat)
        if best in legal:
            return best

    def score(f: FastAction) -> float:
        m = f[1]
        top = total = k = 0
        while m:
            low = m & -m
            v = vals[low.bit_length() - 1]
            top = v if v > top else top
            total += v
            k += 1
            m ^= low
        return top + total / 100 - shed * (k - 1)

    attacks = [f for f in legal if f[0] == ATTACK]
    return min(attacks, key=score) if attacks else legal[0]


def _throw(s: GameState, legal: Sequence[FastAction], stock: int, vals: tuple[int, ...]) -> FastAction:
    pass_action = next(f for f in legal if f[0] == PASS)
    if not s.taking and -1 in s.covers:
        return pass_action  # the defender answers first
    limit = TAKER_THROW_RANK if s.taking else CHEAP_THROW_RANK
    if stock == 0:
        limit = 14
    best: FastAction | None = None
    best_value = 99
    for f in legal:
        if f[0] != ATTACK or f[1].bit_count() != 1:
            continue
        v = vals[_low_card(f[1])]
        if v <= limit and v < best_value:
            best, best_value = f, v
    return best if best is not None else pass_action


#: Kinds in the order searches try them: cover, transfer, show, attack, pass, take, beat.
KIND_ORDER = (3, 0, 1, 2, 5, 4, 6, 7)


def _cost_key(s: GameState) -> Callable[[FastAction], tuple[int, int]]:
    """The order of :func:`cheapest_first` as a sort key: the kind, then the cards' total value."""
    vals = VALUES[s.trump_suit]

    def cost(f: FastAction) -> tuple[int, int]:
        m = f[1]
        total = 0
        while m:
            low = m & -m
            total += vals[low.bit_length() - 1]
            m ^= low
        return (KIND_ORDER[f[0]], total)

    return cost


def cheapest_first(s: GameState, legal: Sequence[FastAction]) -> list[FastAction]:
    """``legal`` from the cheapest to the dearest: covers, transfers, then cards by total
    value, passing before taking. The searches try moves in this order."""
    return sorted(legal, key=_cost_key(s))


def cheapest(s: GameState, legal: Sequence[FastAction]) -> FastAction:
    """The first move of :func:`cheapest_first` (a search node adds its moves one at a time, so
    it needs only the next one, not the whole order)."""
    return min(legal, key=_cost_key(s))
