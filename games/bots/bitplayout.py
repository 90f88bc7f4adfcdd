"""The search's playout of a two-player podkidnoy or perevodnoy game, as one loop over bitmasks.

A playout through the engine (:func:`games.bots.ismcts.playout`) spends most of its time on
what a playout never reads: the list of every legal move at every step, a tuple per action, the
bookkeeping of seats, throwers and places that the engine keeps for any number of players. Two
players make most of it trivial (the throwers are the attacker, the next attacker is known, the
draw order is fixed), so :func:`play` keeps the game in a dozen local ints (the two hands, the
table's masks, the stock's count) and plays the same policy the engine playout plays, the
heuristic (:mod:`.heuristic`) with the same random moves, drawing the same random numbers in the
same order: from the same state and the same generator it reaches the same result
(``tests/bots/test_bitplayout.py`` checks this over thousands of seeded playouts, and that the
legal lists below are the engine's). The legal list is built only when a random move needs it
(:func:`leads`, :func:`defence`, :func:`throw_ins`), in the engine's order.

The engine stays the referee: :func:`covers` says which states this loop knows (two seats, no
redeal still open, no trump shows, the public waiting rule); the search plays any other through
the engine.
"""

from __future__ import annotations

import math
import random

from games.engine.actions import ATTACK, COVER, PASS, TAKE, TRANSFER, FastAction
from games.engine.bout.lead import LEADS
from games.engine.cards import RANK_GROUP, SUBSETS, SUIT_MASK
from games.engine.phases import BOUT, LEAD
from games.engine.state import GameState

from .evaluation import LEADING, WEIGHTS, hand_score
from .heuristic import CHEAP_THROW_RANK, HIGH_TRUMP_RANK, KEPT, TAKER_THROW_RANK, THICK_STOCK, VALUES

_TAKE: FastAction = (TAKE, 0, -1)
_PASS: FastAction = (PASS, 0, -1)
#: The defender's move already played in the common case's own branch of :func:`play`.
_PLAYED = -1
#: The lowest card of the high trumps' rank (:data:`heuristic.HIGH_TRUMP_RANK`): a defender keeps
#: trumps from there up while the stock is thick.
_HIGH_FROM = (HIGH_TRUMP_RANK - 2) * 4


#: _MORE[cap][nibble]: the copies beyond the first that a lead of at most ``cap`` cards keeps
#: of one rank's cards ``nibble``; _REACH[cap]: the most of them (a trump is never among them).
_MORE = tuple(tuple(max(0, kept.bit_count() - 1) for kept in row) for row in KEPT)
_REACH = tuple(min(cap, 3) - 1 if cap else 0 for cap in range(5))


def _best_of_three(window: int) -> int:
    """The lead :func:`heuristic.plain_lead` makes from the plain cards ``window`` of three ranks
    (the lowest of the hand first, every copy kept, the stock not yet out): the cards of the
    rank of least ``rank - 2 * (copies - 1)``, the lower rank on a tie, with bit 12 set when
    that score is no better than the lowest rank's single card (a triple of the next rank up,
    worth one less, would beat it)."""
    best, mask = 999, 0
    for offset in range(3):
        nibble = window >> 4 * offset & 15
        if nibble:
            score = offset - 2 * (nibble.bit_count() - 1)
            if score < best:
                best, mask = score, nibble << 4 * offset
    return mask | (0x1000 if best >= 0 else 0)


#: _WINDOW[plain cards of three ranks]: :func:`_best_of_three`, for every lead while the stock lasts.
_WINDOW = tuple(_best_of_three(w) for w in range(4096))
_TRIPLES = frozenset(n for n in range(16) if n.bit_count() == 3)


def covers(s: GameState) -> bool:
    """Whether :func:`play` knows the game ``s``: two seats at podkidnoy or perevodnoy, waiting for
    a seat, under the rules the loop holds (no redeal still possible, transfers only by laying
    cards, every thrower awaited on public facts)."""
    rules = s.rules
    return (
        s.players == 2
        and s.stage == 0
        and s.phase in (LEAD, BOUT)
        and not rules.transfer_by_trump_show
        and rules.throw_in_waits == "public"
        and (s.opened or not rules.redeal)
        and s.defender == 1 - s.attacker
        and s.first_awaited() >= 0
    )


def leads(hand: int, limit: int) -> list[FastAction]:
    """Every lead of ``hand`` within ``limit`` cards, in the engine's order."""
    table = LEADS[limit if limit < 4 else 4]
    out: list[FastAction] = []
    h = hand
    while h:
        r4 = ((h & -h).bit_length() - 1) & ~3
        h &= ~(15 << r4)
        out += table[r4 >> 2][(hand >> r4) & 15]
    return out


def defence(
    hand: int, attacks: list[int], uncovered: int, beaters: tuple[int, ...], room: int
) -> list[FastAction]:
    """The defender's covers, transfers (``room`` cards of the attack rank, 0: none) and take, in
    the engine's order."""
    out: list[FastAction] = []
    for a in attacks:
        if uncovered >> a & 1:
            m = hand & beaters[a]
            while m:
                low = m & -m
                out.append((COVER, low, a))
                m ^= low
    if room > 0:
        group = RANK_GROUP[attacks[0]]
        r4 = (group & -group).bit_length() - 1
        for sub in SUBSETS[(hand & group) >> r4]:
            if sub.bit_count() <= room:
                out.append((TRANSFER, sub << r4, -1))
    out.append(_TAKE)
    return out


def throw_ins(fits: int) -> list[FastAction]:
    """A thrower's throw-ins (the cards ``fits`` that may go on the table) and the pass."""
    out: list[FastAction] = []
    while fits:
        low = fits & -fits
        out.append((ATTACK, low, -1))
        fits ^= low
    out.append(_PASS)
    return out


def play(s: GameState, rng: random.Random, noise: float, evaluate: bool) -> list[float]:
    """Each seat's value of playing ``s`` (which :func:`covers`) on with the heuristic, a random
    legal move with probability ``noise``: to the end, or with ``evaluate`` to the first lead
    after the stock ran out, valued there as :func:`games.bots.evaluation.stock_out_values`
    values it. ``s`` is left as it was."""
    rnd = rng.random
    rules = s.rules
    transfers = rules.variant == "perevodnoy"
    move_cap = rules.max_actions
    acts = s.actions_played
    trump = s.trump_suit
    vals = VALUES[trump]
    trumps = SUIT_MASK[trump]
    high_trumps = trumps >> _HIGH_FROM << _HIGH_FROM
    plain = ~trumps
    beaters = s.beaters
    att = s.attacker
    A = s.hands[att]
    D = s.hands[1 - att]
    stock = s.stock
    ns = len(stock)
    # prefix[i]: the stock's bottom i cards; the top k of n are prefix[n] ^ prefix[n - k].
    m = 0
    prefix = [0, *[m := m | 1 << c for c in stock]]
    # Whether the game's first bito, which lifts the five-card limit, is still to come.
    first_five = rules.first_five and not s.bito_done
    limit = s.attack_limit
    lead = s.phase == LEAD
    atk = s.attack_cards[:]
    natk = len(atk)
    unc = table = 0
    covered = False
    for a, c in zip(atk, s.covers, strict=True):
        table |= 1 << a
        if c < 0:
            unc |= 1 << a
        else:
            table |= 1 << c
            covered = True
    tr = s.table_ranks
    taking = s.taking
    passed = bool(s.passed >> att & 1)
    thrower = att in s.throwers
    while True:
        if lead:
            if evaluate and not ns:
                return _evaluate(A, D, att, trump)
            # The heuristic's lead (heuristic.plain_lead), unless a random one: the engine
            # playout draws once to skip the legal list, and again before a random move.
            mask = 0
            if rnd() < noise:
                if not A & (A - 1):
                    mask = A
                elif rnd() < noise:
                    legal = leads(A, limit)
                    mask = legal[int(rnd() * len(legal))][1]
            if not mask and ns and limit > 2:
                # plain_lead while the stock lasts, every plain copy of a rank kept: a rank scores
                # rank - 2 * (copies - 1), so the best lies within four ranks of the lowest.
                h = A & plain
                if h:
                    r4 = ((h & -h).bit_length() - 1) & ~3
                    h >>= r4
                    mask = _WINDOW[h & 0xFFF]
                    if mask > 0xFFF:  # a triple of the fourth rank would score less
                        fourth = h & 0xF000
                        mask = fourth if fourth >> 12 in _TRIPLES else mask & 0xFFF
                    mask <<= r4
                else:
                    mask = A & -A
            if not mask:
                # plain_lead: the plain rank of least rank - shed * (copies - 1); a rank this
                # far above the best so far cannot beat it, so the scan stops there.
                shed = 2 if ns else 4
                most = limit if limit < 4 else 4
                kept = KEPT[most]
                more = _MORE[most]
                reach = shed * _REACH[most]
                mask = A & -A
                best = 999
                h = A & plain
                while h:
                    r4 = ((h & -h).bit_length() - 1) & ~3
                    rank = (r4 >> 2) + 2
                    if rank - reach >= best:
                        break
                    nibble = h >> r4 & 15
                    h ^= nibble << r4
                    score = rank - shed * more[nibble]
                    if score < best:
                        mask, best = kept[nibble] << r4, score
            A ^= mask
            if mask & (mask - 1):
                atk = []
                m = mask
                while m:
                    low = m & -m
                    atk.append(low.bit_length() - 1)
                    m ^= low
            else:
                atk = [mask.bit_length() - 1]
            natk = len(atk)
            unc = table = mask
            covered = False
            tr = RANK_GROUP[atk[0]]
            passed = taking = lead = False
            acts += 1
            if acts >= move_cap:
                return _move_cap(A, D, att)
            continue
        if not taking and unc:
            # The defender: cover, transfer or take (heuristic._defend).
            room = 0
            if transfers and not covered and A and D & RANK_GROUP[atk[0]]:
                held = A.bit_count()
                room = (held if held < 6 else 5 if first_five else 6) - natk
            kind = TAKE
            if room <= 0 and not unc & (unc - 1):
                # One card to beat and no transfer, the common case: the plan is its cheapest
                # beater, laid unless it is a high trump while the stock is thick.
                target = unc.bit_length() - 1
                options = D & beaters[target]
                if options and rnd() >= noise:
                    same = options & SUIT_MASK[target & 3]
                    mask = same & -same if same else options & -options
                    if ns > THICK_STOCK and mask & high_trumps and natk <= 2:
                        taking = True
                    else:
                        D ^= mask
                        unc = 0
                        table |= mask
                        tr |= RANK_GROUP[mask.bit_length() - 1]
                        covered = True
                    passed = False
                    kind = _PLAYED
                elif options:
                    legal = defence(D, atk, unc, beaters, room)
                    kind, mask, target = legal[int(rnd() * len(legal))]
            elif room > 0 or D & _beaten(unc, beaters):
                if rnd() < noise:
                    legal = defence(D, atk, unc, beaters, room)
                    kind, mask, target = legal[int(rnd() * len(legal))]
                elif room > 0 and D & RANK_GROUP[atk[0]] & plain:
                    mask = D & RANK_GROUP[atk[0]] & plain
                    kind, mask = TRANSFER, mask & -mask
                else:
                    # cover_plan: the dearest attack card first, each with its cheapest beater.
                    todo = [a for a in atk if unc >> a & 1]
                    if len(todo) > 1:
                        todo.sort(key=vals.__getitem__, reverse=True)
                    left = D
                    used = 0
                    high = False
                    mask = target = 0
                    for a in todo:
                        options = left & beaters[a]
                        if not options:
                            break
                        same = options & SUIT_MASK[a & 3]
                        low = same & -same if same else options & -options
                        left ^= low
                        if low & trumps:
                            used += 1
                            high = high or bool(low & high_trumps)
                        if not mask:
                            mask, target = low, a
                    else:
                        if not (ns > THICK_STOCK and (high or used >= 2) and natk <= 2):
                            kind = COVER
            if kind == COVER:
                D ^= mask
                unc ^= 1 << target
                table |= mask
                tr |= RANK_GROUP[mask.bit_length() - 1]
                covered = True
                passed = False
            elif kind == TAKE:
                taking = True
                passed = False
            elif kind == TRANSFER:  # the defender becomes the attacker
                D ^= mask
                m = mask
                while m:
                    low = m & -m
                    atk.append(low.bit_length() - 1)
                    m ^= low
                natk = len(atk)
                unc |= mask
                table |= mask
                A, D = D, A
                att ^= 1
                held = D.bit_count()
                limit = held if held < 6 else 5 if first_five else 6
                thrower = A != 0
                passed = False
                acts += 1
                if acts >= move_cap:
                    return _move_cap(A, D, att)
                continue
        else:
            # The attacker throws in or passes (heuristic._throw).
            fits = A & tr
            throw = 0
            if not fits:
                pass
            elif rnd() < noise:
                legal = throw_ins(fits)
                throw = legal[int(rnd() * len(legal))][1]
            else:
                p = fits & plain
                if p:
                    low = p & -p
                    top = 14 if not ns else TAKER_THROW_RANK if taking else CHEAP_THROW_RANK
                    if vals[low.bit_length() - 1] <= top:
                        throw = low
            if throw:
                A ^= throw
                atk.append(throw.bit_length() - 1)
                natk += 1
                unc |= throw
                table |= throw
                passed = False
            else:
                passed = True
        # settle: the bout goes on while anybody is awaited.
        if (taking or not unc) and not (thrower and not passed and A and natk < limit and (taking or D)):
            # The bout ends: bito, or the defender picks the table up; then both draw.
            if taking:
                D |= table
            else:
                first_five = False
            if ns:
                need = 6 - A.bit_count()
                if need > 0:
                    got = need if need < ns else ns
                    A |= prefix[ns] ^ prefix[ns - got]
                    ns -= got
                need = 6 - D.bit_count()
                if need > 0 and ns:
                    got = need if need < ns else ns
                    D |= prefix[ns] ^ prefix[ns - got]
                    ns -= got
            if not ns and not (A and D):
                if A:
                    return _fool(att)
                if D or not rules.draws:
                    return _fool(1 - att)
                return [0.5, 0.5]
            if not taking:
                A, D = D, A
                att ^= 1
            held = D.bit_count()
            limit = held if held < 6 else 5 if first_five else 6
            thrower = True
            lead = True
            taking = False
        acts += 1
        if acts >= move_cap:
            return _move_cap(A, D, att)


def _beaten(cards: int, beaters: tuple[int, ...]) -> int:
    """Every card that beats one of ``cards``."""
    out = 0
    while cards:
        low = cards & -cards
        out |= beaters[low.bit_length() - 1]
        cards ^= low
    return out


def _fool(seat: int) -> list[float]:
    out = [1.0, 1.0]
    out[seat] = 0.0
    return out


def _move_cap(A: int, D: int, att: int) -> list[float]:
    """The move cap's draw: the seats still holding cards share it."""
    out = [1.0, 1.0]
    if A:
        out[att] = 0.5
    if D:
        out[1 - att] = 0.5
    return out


def _evaluate(A: int, D: int, att: int, trump: int) -> list[float]:
    """:func:`games.bots.evaluation.stock_out_values` of the hands, ``att`` to lead."""
    weights = WEIGHTS[trump]
    h0, h1 = (A, D) if att == 0 else (D, A)
    z = hand_score(h0, weights) - hand_score(h1, weights)
    z += LEADING if att == 0 else -LEADING
    first = 1 / (1 + math.exp(-z))
    return [first, 1 - first]
