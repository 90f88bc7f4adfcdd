"""Reading the opponents' choices: determinizations weighted by what each player chose to do.

:class:`~games.engine.infostate.InfoState` deals the unseen cards uniformly where the hard facts
allow. But a choice says something about the hand it was made from, as the strongest
imperfect-information card bots use it: a defender who took a single plain card probably held no
cheap beater of its suit; an attacker who passed on a covered table probably held no cheap plain
card of its ranks; a leader probably led its lowest plain rank. Each such choice is a *clue*: a
seat, the unseen cards that would have made the choice unlikely, and how unlikely (the model is
the heuristic's own play, :mod:`games.bots.heuristic`, softened because people and searching bots
deviate from it). :class:`ReadInfoState` samples as the plain information set does and keeps a
sample with the product of its clues' factors (rejection sampling: a sample that fits every clue
is always kept), so the search sees the deals the choices make likely more often, and no deal is
ever ruled out.

Only what the seat saw is read: its view and the public events (the same input as
``InfoState``), and a clue only ever names cards the seat cannot see. A clue holds while its
player has drawn nothing since (the hand then is the hand now, less what it played and plus what it
picked up in public); once the player drew, a card of the clue may be a drawn one, so its factor
is softened. Only the ``podkidnoy`` and ``perevodnoy`` families are read (``circle`` plays by other
choices: the clues would be about the wrong rules).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from games.engine.bout.limits import limit_for
from games.engine.cards import RED_JOKER, SUITED_MASK, SUITS, mask_of
from games.engine.events import Event
from games.engine.infostate import EventLike, InfoState
from games.engine.rules import Rules
from games.engine.state import GameState
from games.engine.visibility import View

from .heuristic import CHEAP_THROW_RANK, HIGH_TRUMP_RANK, THICK_STOCK

#: How much a clue's choice is less likely with one of its cards in hand: a lead over a lower plain
#: card, a pass with a cheap plain card of the table's ranks, a single-card take with a cheap beater.
LEAD_FACTOR = 0.3
PASS_FACTOR = 0.25
TAKE_FACTOR = 0.3
#: A clue whose player drew since: some of its cards may be new, so its factor counts less.
STALE_FACTOR_POWER = 0.5
#: Samples drawn at most per :meth:`ReadInfoState.sample` before the best so far is kept.
TRIES = 6

#: SUIT_CARDS[s]: every card of suit ``s``.
_SUIT_CARDS = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))
#: RANK_CARDS[r]: the four cards of rank ``r`` (2..14).
_RANK_CARDS = {r: 0b1111 << ((r - 2) * 4) for r in range(2, 15)}
#: BELOW[r]: every card of a rank below ``r``.
_BELOW = {r: (1 << ((r - 2) * 4)) - 1 for r in range(2, 16)}


@dataclass(frozen=True, slots=True)
class Clue:
    """A choice of ``seat``: holding any card of ``cards`` makes it ``factor`` times as likely."""

    seat: int
    cards: int
    factor: float


def read_clues(seat_view: View, rules: Rules, history: Iterable[EventLike] | None) -> list[Clue]:
    """The clues in the public ``history``, as the seat ``seat_view.viewer`` saw it.

    Reads events since the last redeal. Hand counts before each event are rebuilt backwards from
    the view's counts (every change of a count is public: plays, draws by count, pickups by
    count), which gives the throw-in limit a pass was made under."""
    if history is None or rules.variant == "circle" or seat_view.viewer is None:
        return []
    events = [e if isinstance(e, Event) else Event.from_dict(e) for e in history]
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind == "redeal":
            events = events[i + 1 :]
            break
    if not events:
        return []
    n = int(seat_view.players)
    trump = SUITS.index(seat_view.trump_suit[0].upper())
    trumps = _SUIT_CARDS[trump]
    plain = SUITED_MASK & ~trumps
    # Counts and stock before each event, rebuilt backwards from now.
    counts = [int(c) for c in seat_view.hand_counts]
    stock = int(seat_view.stock_count)
    before: list[tuple[list[int], int]] = [([], 0)] * len(events)
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.seat is not None and 0 <= e.seat < n:
            if e.kind in ("attack", "cover", "transfer"):
                counts[e.seat] += len(e.cards)
            elif e.kind == "draw":
                counts[e.seat] -= e.count
                stock += e.count
            elif e.kind == "took":
                counts[e.seat] -= e.count
        before[i] = (counts[:], stock)
    if min(counts) < 0:
        return []  # a partial history: the counts cannot be trusted
    drew_after = _draws_after(events, n)
    me = int(seat_view.viewer)
    clues: list[Clue] = []

    def add(seat: int, cards: int, factor: float, at: int) -> None:
        if seat != me and cards:
            clues.append(Clue(seat, cards, factor**STALE_FACTOR_POWER if drew_after[at][seat] else factor))

    # The bout under way: its attack cards, the ranks on the table, the covered attacks, the
    # counts when its limit was set (at the lead, or at the last transfer), its defender.
    attacks: list[int] = []
    ranks = covered = 0
    counts_at_limit: list[int] = []
    defender: int | None = None
    taking = bito_done = False
    for i, e in enumerate(events):
        k, seat = e.kind, e.seat
        if seat is None or not 0 <= seat < n:
            continue
        counts_then, stock_then = before[i]
        if k == "attack" and e.count == 1:  # a bout's lead
            attacks, ranks, covered, defender, taking = [], 0, 0, None, False
            counts_at_limit = counts_then
            led = mask_of(e.cards)
            if led & plain:
                lowest = min((c >> 2) + 2 for c in e.cards if (1 << c) & plain)
                add(seat, _BELOW[lowest] & plain, LEAD_FACTOR, i)
            else:
                add(seat, plain, LEAD_FACTOR, i)  # trumps led while plain cards were held
        if k in ("attack", "transfer", "cover"):
            for c in e.cards:
                if c < RED_JOKER:
                    ranks |= _RANK_CARDS[(c >> 2) + 2]
        if k in ("attack", "transfer"):
            attacks.extend(e.cards)
        if k == "transfer":
            defender, counts_at_limit = None, counts_then
        elif k in ("cover", "take") and defender is None:
            defender = seat
        if k == "cover" and e.target is not None:
            covered |= 1 << e.target
        elif k == "take":
            taking = True
            open_attacks = [a for a in attacks if not covered >> a & 1]
            if len(open_attacks) == 1 and (1 << open_attacks[0]) & plain:
                a = open_attacks[0]
                beaters = _SUIT_CARDS[a & 3] & ~((2 << a) - 1)
                if stock_then <= THICK_STOCK:
                    beaters |= trumps & _BELOW[HIGH_TRUMP_RANK]
                add(seat, beaters, TAKE_FACTOR, i)
        elif k == "pass" and defender is not None and counts_at_limit:
            if not taking and any(not covered >> a & 1 for a in attacks):
                continue  # waiting for the cover says nothing
            if len(attacks) >= limit_for(rules, counts_at_limit[defender], bito_done):
                continue  # the bout was full: the pass was forced
            cheap = plain if stock_then == 0 or taking else plain & _BELOW[CHEAP_THROW_RANK + 1]
            add(seat, ranks & cheap, PASS_FACTOR, i)
        elif k in ("bito", "took"):
            bito_done = bito_done or k == "bito"
            attacks, ranks, covered, defender, taking = [], 0, 0, None, False
    return clues


def _draws_after(events: list[Event], n: int) -> list[list[bool]]:
    """``result[i][s]``: whether seat ``s`` drew after event ``i``."""
    drew = [False] * n
    out: list[list[bool]] = [[]] * len(events)
    for i in range(len(events) - 1, -1, -1):
        out[i] = drew[:]
        e = events[i]
        if e.kind == "draw" and e.seat is not None and 0 <= e.seat < n and e.count:
            drew[e.seat] = True
    return out


class ReadInfoState(InfoState):
    """An :class:`InfoState` whose samples follow the clues of the opponents' choices.

    Same input, same hard facts: every sample is one ``InfoState.sample`` could deal; a sample is
    kept with the product of the factors of the clues its hands meet, up to :data:`TRIES` samples
    (then the most likely one drawn is kept, so a decision never waits on an unlucky run)."""

    def __init__(
        self,
        seat_view: View,
        rules: Rules | None = None,
        history: Iterable[EventLike] | None = None,
        *,
        remember_discard: bool = True,
    ) -> None:
        super().__init__(seat_view, rules, history, remember_discard=remember_discard)
        # Only the cards a sample may deal differently can tell samples apart.
        unseen = mask_of(self.rest)
        self.clues = [
            Clue(c.seat, c.cards & unseen, c.factor)
            for c in read_clues(seat_view, self.rules, history)
            if c.cards & unseen
        ]

    def likelihood(self, hands: list[int]) -> float:
        """How likely the clues' choices were with these hands (1.0: none is against them)."""
        weight = 1.0
        for clue in self.clues:
            if hands[clue.seat] & clue.cards:
                weight *= clue.factor
        return weight

    def sample(self, rng: random.Random) -> GameState:
        if not self.clues:
            return super().sample(rng)
        best, best_weight = None, -1.0
        for _ in range(TRIES):
            s = super().sample(rng)
            weight = self.likelihood(s.hands)
            if rng.random() < weight:
                return s
            if weight > best_weight:
                best, best_weight = s, weight
        assert best is not None
        return best
