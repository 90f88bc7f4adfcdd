"""The game state and the bout: attack, cover, throw in, transfer, take, bito, draw.

One class plays all three variants; ``circle`` stage 1 lives in :mod:`.circle`, and the
stage-2 throw-in rounds are ``_round_start`` / ``_round_advance`` below (the branches on
``self.stage == 2``).

Representation (for speed): hands are int bitmasks, the table is two parallel lists
(``att`` attack cards, ``cov`` their covers or -1), ``tranks`` is the mask of every
card sharing a rank with a table card, so the possible throw-ins of a hand are
``hand & tranks``.  The stock is a list, bottom first (the turned-up trump is
``stock[0]``), drawn from the end.

Choices where RULES.md is silent, made here (all of them are listed in the package
docstring and, with reasons, in ``docs/rules.md``):

* The defender may take only while some attack card is uncovered; once everything is
  covered the throwers decide (throw in or pass).
* Throwers may pass at any time; a pass holds until a change on the table (a card laid or
  covered, a transfer or show, the take) reopens it.  A seat with no possible throw-in
  (no card of a table rank, or no room under the limit) is not awaited: it counts as
  passed, so bito and the pick-up happen by themselves.
* Outside ``circle`` throw-ins may come before the defender has covered.
* ``legal_actions`` lists throw-ins one card at a time; a several-card throw-in is legal
  too and equals the same cards thrown one by one.  In ``circle`` stage 2 the player
  whose round turn it is stays in turn after a throw-in until they pass (or the limit is
  reached, or nothing more fits): that is the seed's "any number of cards, then the turn
  moves on".
* After a transfer the limit is set afresh from the new defender's hand at that moment.
* ``rules.max_actions`` (default 3000) caps a game: reaching it ends the game as a draw
  among the players still holding cards (``reason="move_cap"``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .actions import (
    ATTACK,
    BEAT,
    COVER,
    PASS,
    REDEAL,
    SHOW,
    TAKE,
    TRANSFER,
    Action,
    FastAction,
)
from .cards import (
    BEATEN_BY,
    JOKERS_MASK,
    RANK_GROUP,
    RED_JOKER,
    SUIT_MASK,
    cards_of,
    sort_key,
)
from .errors import IllegalAction
from .events import Event
from .result import Result
from .rules import Rules

if TYPE_CHECKING:
    from .views import View

# Phases.
LEAD = 0  # the bout's attacker must lead
BOUT = 1  # cards on the table
BEAT_CHOICE = 2  # circle stage 1: the drawn card must beat a circle card
OVER = 3

#: SUBSETS[g] = the non-empty sub-patterns of a 4-bit rank group pattern ``g``.
SUBSETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(1, 16) if s & g == s) for g in range(16)
)
#: LEADS[k][r][g] = the one-rank leads of at most ``k`` cards (k <= 4) from the cards
#: of pattern ``g`` in rank group ``r`` (cards ``4r .. 4r+3``), as ready fast actions:
#: listing leads then builds no tuple.
LEADS: tuple[tuple[tuple[tuple[FastAction, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple((ATTACK, sp << 4 * r, -1) for sp in SUBSETS[g] if sp.bit_count() <= k)
            for g in range(16)
        )
        for r in range(13)
    )
    for k in range(5)
)
#: PAIRS[g] = the 2-card sub-patterns of ``g``.
PAIRS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in SUBSETS[g] if s.bit_count() == 2) for g in range(16)
)

_LOW = (1 << 52) - 1  # every non-joker card


def is_circle_lead_shape(mask: int) -> bool:
    """Whether the cards of ``mask`` make a ``circle`` stage-2 lead: one card, a pair and
    a single, or two pairs and a single (each time of different ranks)."""
    counts = sorted((mask >> r4 & 15).bit_count() for r4 in range(0, 52, 4) if mask >> r4 & 15)
    return counts in ([1], [1, 2], [1, 2, 2])


class GameState:
    """A game in progress.  Build one with :func:`games.engine.new_game`.

    >>> from games.engine import Deal, Rules, new_game
    >>> s = new_game(Rules(), seed="doc", deal=Deal(
    ...     hands=[["6S", "7S", "8S", "9S", "10S", "JS"], ["6H", "7H", "8H", "9H", "10H", "JH"]],
    ...     trump="6D", stock=[], dealer=1))
    >>> s.actors(), s.awaiting()
    ((0,), {0: 'lead'})
    >>> [str(e.kind) for e in s.apply(0, Action.parse("attack 6S"))]
    ['attack']
    >>> s.is_legal(1, Action.parse("cover 7H>6S"))
    False
    >>> s.verify(1, Action.parse("cover 7H>6S"))
    Traceback (most recent call last):
    ...
    games.engine.errors.IllegalAction: 7♥ does not beat 6♠
    """

    __slots__ = (
        "att",
        "attacker",
        "beaters",
        "bito_done",
        "cap",
        "center",
        "circle",
        "cov",
        "dealer",
        "defender",
        "discard",
        "drawn",
        "dstart",
        "first_card",
        "hands",
        "joker_covered",
        "lead_size",
        "leader",
        "n",
        "nactions",
        "opened",
        "out_bout",
        "out_mask",
        "passed",
        "phase",
        "places",
        "redeals",
        "result_",
        "rnd_added",
        "rnd_order",
        "rnd_pos",
        "rules",
        "s1turn",
        "seed",
        "shown",
        "stage",
        "stock",
        "taking",
        "thr",
        "tranks",
        "trump",
        "trump_card",
    )

    rules: Rules
    seed: str
    dealer: int
    n: int
    trump: int
    trump_card: int
    beaters: tuple[int, ...]
    hands: list[int]
    stock: list[int]
    discard: int
    att: list[int]
    cov: list[int]
    tranks: int
    thr: tuple[int, ...]
    attacker: int
    defender: int
    leader: int
    dstart: int
    cap: int
    phase: int
    taking: bool
    passed: int
    bito_done: bool
    places: list[list[int]]
    out_mask: int
    out_bout: list[int]
    nactions: int
    opened: bool
    redeals: int
    shown: int
    result_: Result | None
    joker_covered: bool
    stage: int
    circle: list[int]
    center: int
    drawn: int
    s1turn: int
    lead_size: int
    rnd_order: list[int]
    rnd_pos: int
    rnd_added: bool
    first_card: int

    # ------------------------------------------------------------------ basics

    def clone(self) -> GameState:
        """A copy sharing nothing mutable (ints and short lists are copied)."""
        c = object.__new__(GameState)
        c.rules = self.rules
        c.seed = self.seed
        c.dealer = self.dealer
        c.n = self.n
        c.trump = self.trump
        c.trump_card = self.trump_card
        c.beaters = self.beaters
        c.hands = self.hands[:]
        c.stock = self.stock[:]
        c.discard = self.discard
        c.att = self.att[:]
        c.cov = self.cov[:]
        c.tranks = self.tranks
        c.thr = self.thr
        c.attacker = self.attacker
        c.defender = self.defender
        c.leader = self.leader
        c.dstart = self.dstart
        c.cap = self.cap
        c.phase = self.phase
        c.taking = self.taking
        c.passed = self.passed
        c.bito_done = self.bito_done
        c.places = [p[:] for p in self.places]
        c.out_mask = self.out_mask
        c.out_bout = self.out_bout[:]
        c.nactions = self.nactions
        c.opened = self.opened
        c.redeals = self.redeals
        c.shown = self.shown
        c.result_ = self.result_
        c.joker_covered = self.joker_covered
        c.stage = self.stage
        c.circle = self.circle[:]
        c.center = self.center
        c.drawn = self.drawn
        c.s1turn = self.s1turn
        c.lead_size = self.lead_size
        c.rnd_order = self.rnd_order[:]
        c.rnd_pos = self.rnd_pos
        c.rnd_added = self.rnd_added
        c.first_card = self.first_card
        return c

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (see :meth:`result`)."""
        return self.phase == OVER

    def result(self) -> Result | None:
        """The result once the game is over, else None."""
        return self.result_

    @property
    def attack_limit(self) -> int:
        """The most attack cards this bout may hold now, the lead included.

        The defender's hand when the bout began (or, after a transfer, the new
        defender's hand at the transfer), at most 6, at most 5 before the game's first
        bito (``first_bout_limit_5``); lowered to the cards already laid once a joker
        covers under ``throw_in_after_joker=False``, and to 5 when a 5-card ``circle``
        lead is taken.  Set when a bout is to be led (0 in ``circle`` stage 1).

        >>> from games.engine import Rules, new_game
        >>> new_game(Rules(), seed="limit").attack_limit
        5
        """
        return self.cap

    def _next_with_cards(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that holds cards, or -1."""
        hands = self.hands
        n = self.n
        for i in range(1, n):
            t = (seat + i) % n
            if hands[t]:
                return t
        return -1

    def _next_opponent(self, seat: int) -> int:
        """The next opponent clockwise who holds cards (any other player without teams)."""
        if not self.rules.teams:
            return self._next_with_cards(seat)
        for t in ((seat + 1) % 4, (seat + 3) % 4):
            if self.hands[t]:
                return t
        return -1

    def _limit(self, defender_cards: int) -> int:
        """The attack limit against a defender holding ``defender_cards``: that many, at
        most 6, at most 5 before the game's first bito (``first_bout_limit_5``)."""
        lim = 6 if defender_cards > 6 else defender_cards
        if lim > 5 and not self.bito_done and self.rules.first_five:
            lim = 5
        return lim

    def _throwers(self) -> list[int]:
        """Seats allowed to throw in this bout (holding cards), attacker first, then
        clockwise; kept as ``thr`` when a bout starts or is transferred."""
        hands = self.hands
        d = self.defender
        a = self.attacker
        n = self.n
        partner = (d + 2) % 4 if self.rules.teams else -1
        if self.rules.throw_in == "all":
            out = []
            for i in range(n):
                t = (a + i) % n
                if t != d and t != partner and hands[t]:
                    out.append(t)
            return out
        out = [a] if hands[a] and a != d else []
        after = self._next_with_cards(d)
        if after not in (-1, d, partner, a):
            out.append(after)
        return out

    def _open_throwers(self) -> list[int]:
        """Throwers who have not passed and could throw a card in now."""
        if len(self.att) >= self.cap:
            return []
        hands = self.hands
        tr = self.tranks
        passed = self.passed
        return [t for t in self.thr if not passed >> t & 1 and hands[t] & tr]

    # ------------------------------------------------------------------ queries

    def actors(self) -> tuple[int, ...]:
        """Seats that may act now (several with ``throw_in="all"``), in seat order."""
        ph = self.phase
        if ph == OVER:
            return ()
        if ph == BEAT_CHOICE:
            return (self.s1turn,)
        if ph == LEAD:
            if not self.rules.redeal or self.opened:
                return (self.attacker,)
            return tuple(sorted({self.attacker, *self._redeal_seats()}))
        if self.stage == 2:
            if self.rnd_pos >= 0:
                return (self.rnd_order[self.rnd_pos],)
            return (self.defender,)
        seats = self._open_throwers()
        if not self.taking and -1 in self.cov:
            seats.append(self.defender)
            seats.sort()
        elif len(seats) > 1:
            seats.sort()
        return tuple(seats)

    def awaiting(self) -> dict[int, str]:
        """Seat -> what the game waits for; only seats whose action it needs to go on.

        Codes: ``lead`` (the attacker leads), ``cover`` (the defender covers, transfers or
        takes), ``throw_in`` (throw in or pass; bito waits for every pass),
        ``take_more`` (the defender takes: throw in more or pass), ``beat`` (circle
        stage 1: choose which circle card the drawn card beats).  Optional actions
        (a redeal, a throw-in while cards are still uncovered) are in :meth:`actors`
        but not awaited.
        """
        ph = self.phase
        if ph == OVER:
            return {}
        if ph == BEAT_CHOICE:
            return {self.s1turn: "beat"}
        if ph == LEAD:
            return {self.attacker: "lead"}
        code = "take_more" if self.taking else "throw_in"
        if self.stage == 2:
            if self.rnd_pos >= 0:
                return {self.rnd_order[self.rnd_pos]: code}
            return {self.defender: "cover"}
        if not self.taking and -1 in self.cov:
            return {self.defender: "cover"}
        return {t: code for t in self._open_throwers()}

    def _redeal_seats(self) -> list[int]:
        """Seats that may claim a redeal now: five or more cards of a suit, no lead yet."""
        if not self.rules.redeal or self.opened or self.phase != LEAD:
            return []
        out = []
        for s, h in enumerate(self.hands):
            for m in SUIT_MASK:
                if (h & m).bit_count() >= 5:
                    out.append(s)
                    break
        return out

    # ------------------------------------------------------------------ legal moves

    def legal_fast(self, seat: int) -> list[FastAction]:
        """Every legal action of ``seat`` in the fast tuple form ([] if it may not act)."""
        ph = self.phase
        if ph == OVER:
            return []
        if ph == BEAT_CHOICE:
            if seat != self.s1turn:
                return []
            d = self.drawn
            targets = BEATEN_BY[(self.trump, self.rules.joker_beats)][d]
            return [(BEAT, 1 << d, c) for c in self.circle if targets >> c & 1]
        hand = self.hands[seat]
        if ph == LEAD:
            out: list[FastAction] = []
            if seat == self.attacker:
                out = self._leads(hand)
            if self.rules.redeal and seat in self._redeal_seats():
                out.append((REDEAL, 0, -1))
            return out
        out = []
        if seat == self.defender:
            if self.taking or (self.stage == 2 and self.rnd_pos >= 0):
                return out
            bt = self.beaters
            cov = self.cov
            unc = 0
            for i, a in enumerate(self.att):
                if cov[i] < 0:
                    unc += 1
                    m = hand & bt[a]
                    while m:
                        low = m & -m
                        out.append((COVER, low, a))
                        m ^= low
            if unc:
                if self.rules.transfers:
                    self._transfers(hand, out)
                out.append((TAKE, 0, -1))
            return out
        # a thrower
        if self.stage == 2:
            if self.rnd_pos < 0 or self.rnd_order[self.rnd_pos] != seat:
                return out
        elif self.passed >> seat & 1 or seat not in self.thr:
            return out
        if len(self.att) < self.cap:
            m = hand & self.tranks
            while m:
                low = m & -m
                out.append((ATTACK, low, -1))
                m ^= low
        if out or self.stage == 2:
            out.append((PASS, 0, -1))
        return out

    def _leads(self, hand: int) -> list[FastAction]:
        """Every lead of the attacker's ``hand`` within the limit."""
        out: list[FastAction] = []
        cap = self.cap
        plain = hand & _LOW
        if self.stage == 2:
            if not plain:  # only jokers: pass_on must lead one
                if self.rules.joker_last == "pass_on":
                    m = hand & JOKERS_MASK
                    while m:
                        low = m & -m
                        out.append((ATTACK, low, -1))
                        m ^= low
                return out
            return self._circle_leads(plain, cap)
        leads = LEADS[cap if cap < 4 else 4]
        h = plain
        while h:
            r4 = ((h & -h).bit_length() - 1) & ~3
            h &= ~(15 << r4)
            out += leads[r4 >> 2][(plain >> r4) & 15]
        return out

    def _lead_ok(self, mask: int) -> bool:
        """Whether ``mask`` (held by the attacker) is a legal lead, without listing leads."""
        k = mask.bit_count()
        if not mask or k > self.cap:
            return False
        hand = self.hands[self.attacker]
        if mask & JOKERS_MASK:
            return (
                self.stage == 2 and k == 1 and not hand & _LOW
                and self.rules.joker_last == "pass_on"
            )
        if self.stage != 2:
            return not mask & ~RANK_GROUP[(mask & -mask).bit_length() - 1]
        return is_circle_lead_shape(mask)

    def _circle_leads(self, plain: int, cap: int) -> list[FastAction]:
        """Stage-2 leads: a single card; a pair and a single; two pairs and a single."""
        groups = []
        h = plain
        while h:
            r4 = ((h & -h).bit_length() - 1) & ~3
            groups.append((r4, (h >> r4) & 15))
            h &= ~(15 << r4)
        singles = [(r4, 1 << (r4 + b)) for r4, g in groups for b in range(4) if g >> b & 1]
        out: list[FastAction] = [(ATTACK, bit, -1) for _, bit in singles]
        pairs = [(r4, p << r4) for r4, g in groups for p in PAIRS[g]]
        if cap >= 3:
            out += [(ATTACK, p | bit, -1) for r4, p in pairs for sr, bit in singles if sr != r4]
        if cap >= 5:
            for i, (r1, p1) in enumerate(pairs):
                for r2, p2 in pairs[i + 1 :]:
                    if r2 != r1:
                        pp = p1 | p2
                        out += [
                            (ATTACK, pp | bit, -1)
                            for sr, bit in singles
                            if sr != r1 and sr != r2
                        ]
        return out

    def _transfer_target(self) -> int:
        """Who a transfer would make the defender: the defender's next opponent with cards."""
        return self._next_opponent(self.defender)

    def _transfers(self, hand: int, out: list[FastAction]) -> None:
        """Append the defender's transfers (and trump shows): only before any cover, and in
        ``circle`` only after a single-card lead; the cards then on the table must fit
        under the next defender's limit."""
        if self.taking or max(self.cov) >= 0 or (self.stage == 2 and self.lead_size != 1):
            return
        nd = self._transfer_target()
        if nd < 0 or nd == self.defender:
            return
        group = RANK_GROUP[self.att[0]]
        m = hand & group
        room = self._limit(self.hands[nd].bit_count()) - len(self.att)
        if m and room > 0:
            r4 = (group & -group).bit_length() - 1
            for sp in SUBSETS[m >> r4]:
                if sp.bit_count() <= room:
                    out.append((TRANSFER, sp << r4, -1))
        if self.rules.transfer_by_trump_show and room >= 0:
            t = m & SUIT_MASK[self.trump] & ~self.shown
            if t:
                out.append((SHOW, t, -1))

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` ([] for a seat that may not act)."""
        return [Action.from_fast(f) for f in self.legal_fast(seat)]

    # ------------------------------------------------------------------ verification

    def _illegal(self, seat: int, fa: FastAction) -> IllegalAction | None:
        """Why ``seat`` may not play ``fa`` here, or None when it may."""
        from .explain import why_illegal

        return why_illegal(self, seat, fa)

    def verify(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` (saying why) unless ``seat`` may play ``action``."""
        err = self._illegal(seat, action.to_fast())
        if err is not None:
            raise err

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may play ``action`` now (:meth:`verify` says why not)."""
        return self._illegal(seat, action.to_fast()) is None

    def default_action(self, seat: int) -> Action:
        """What a timeout plays: lead the lowest card (non-trumps first), the defender
        takes, a thrower passes, the drawn card beats the lowest circle card it can."""
        legal = self.legal_fast(seat)
        if not legal or seat not in self.awaiting():
            raise IllegalAction.of("not_your_turn")
        for f in legal:
            if f[0] in (TAKE, PASS):
                return Action.from_fast(f)
        if self.phase == LEAD:
            key = sort_key(self.trump)
            singles = [f for f in legal if f[0] == ATTACK and f[1].bit_count() == 1]
            best = min(singles, key=lambda f: key(f[1].bit_length() - 1))
            return Action.from_fast(best)
        return Action.from_fast(min(legal, key=lambda f: (f[2], f[1])))

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Play ``action`` for ``seat``; returns the public events.  An illegal action
        raises :class:`IllegalAction` and leaves the state unchanged."""
        fa = action.to_fast()
        err = self._illegal(seat, fa)
        if err is not None:
            raise err
        events: list[Event] = []
        self.apply_fast(seat, fa, events)
        return events

    def apply_fast(self, seat: int, fa: FastAction, events: list[Event] | None = None) -> None:
        """Apply a legal fast action without checking it (bots and playouts)."""
        kind, mask, target = fa
        ev = events
        if kind == ATTACK:
            if self.phase == LEAD:
                self._lead(seat, mask, ev)
            else:
                self._throw_in(seat, mask, ev)
        elif kind == COVER:
            self._cover(seat, mask, target, ev)
        elif kind == PASS:
            self._pass(seat, ev)
        elif kind == TAKE:
            self._take(seat, ev)
        elif kind in (TRANSFER, SHOW):
            self._transfer(seat, kind, mask, ev)
        elif kind == BEAT:
            from .circle import beat

            beat(self, seat, target, ev)
        elif kind == REDEAL:
            from .setup import redeal

            redeal(self, seat, ev)
        if self.phase != OVER:
            self.nactions += 1
            if self.nactions >= self.rules.max_actions:
                self._finish_move_cap(ev)

    def _lead(self, seat: int, mask: int, ev: list[Event] | None) -> None:
        self.opened = True
        if mask & JOKERS_MASK:  # pass_on: the next player just takes the joker
            d = self.defender
            self.hands[seat] ^= mask
            self.hands[d] |= mask
            if ev is not None:
                ev.append(Event("attack", seat, tuple(cards_of(mask)), count=1))
                ev.append(Event("took", d, count=1))
            nxt = self._next_with_cards(d)
            self._bout_over(nxt if nxt >= 0 else d, ev)
            return
        self.phase = BOUT
        self.leader = seat
        self.lead_size = mask.bit_count()
        self._lay(seat, mask)
        tr = 0
        for c in self.att:
            tr |= RANK_GROUP[c]
        self.tranks = tr
        if ev is not None:
            ev.append(Event("attack", seat, tuple(cards_of(mask)), count=1))
        self.passed = 0
        self._settle(ev)

    def _lay(self, seat: int, mask: int) -> None:
        """Move ``mask`` from the seat's hand to the table as uncovered attack cards."""
        self.hands[seat] ^= mask
        att = self.att
        cov = self.cov
        while mask:
            low = mask & -mask
            att.append(low.bit_length() - 1)
            cov.append(-1)
            mask ^= low

    def _throw_in(self, seat: int, mask: int, ev: list[Event] | None) -> None:
        self._lay(seat, mask)
        if ev is not None:
            ev.append(Event("attack", seat, tuple(cards_of(mask))))
        self.passed = 0
        if self.stage == 2:
            self.rnd_added = True
            if len(self.att) >= self.cap or not self.hands[seat] & self.tranks:
                self._round_advance(ev)
            return
        self._settle(ev)

    def _cover(self, seat: int, mask: int, target: int, ev: list[Event] | None) -> None:
        self.hands[seat] ^= mask
        card = mask.bit_length() - 1
        self.cov[self.att.index(target)] = card
        if card >= RED_JOKER:
            self.joker_covered = True
            if not self.rules.throw_in_after_joker:
                self.cap = len(self.att)
        else:
            self.tranks |= RANK_GROUP[card]
        if ev is not None:
            ev.append(Event("cover", seat, (card,), target))
        self.passed = 0
        if self.stage == 2:
            if -1 not in self.cov:
                self._round_start(ev)
            return
        self._settle(ev)

    def _pass(self, seat: int, ev: list[Event] | None) -> None:
        if ev is not None:
            ev.append(Event("pass", seat))
        if self.stage == 2:
            self._round_advance(ev)
            return
        self.passed |= 1 << seat
        self._settle(ev)

    def _take(self, seat: int, ev: list[Event] | None) -> None:
        self.taking = True
        if ev is not None:
            ev.append(Event("take", seat))
        self.passed = 0
        if self.stage == 2:
            if self.lead_size == 5 and self.cap > 5:
                self.cap = 5
            self._round_start(ev)
            return
        self._settle(ev)

    def _transfer(self, seat: int, kind: int, mask: int, ev: list[Event] | None) -> None:
        nd = self._transfer_target()
        if kind == TRANSFER:
            self._lay(seat, mask)
        else:
            self.shown |= mask
        if ev is not None:
            ev.append(Event("transfer" if kind == TRANSFER else "show", seat, tuple(cards_of(mask))))
        self.attacker = seat
        self.defender = nd
        self.dstart = self.hands[nd].bit_count()
        self.cap = self._limit(self.dstart)
        self.thr = tuple(self._throwers())
        self.passed = 0
        if self.stage != 2:
            self._settle(ev)

    # ------------------------------------------------------------------ bout flow

    def _settle(self, ev: list[Event] | None) -> None:
        """End the bout when nobody is left to act (podkidnoy / perevodnoy / stage 1)."""
        if not self.taking and -1 in self.cov:
            return
        if self._open_throwers():
            return
        self._end_bout(not self.taking, ev)

    def _round_start(self, ev: list[Event] | None) -> None:
        """Circle stage 2: the defender has covered everything (or takes): a round of
        throw-ins in seat order from the defender's left."""
        d = self.defender
        n = self.n
        throwers = set(self.thr)
        self.rnd_order = [t for t in ((d + i) % n for i in range(1, n)) if t in throwers]
        self.rnd_pos = -1
        self.rnd_added = False
        self._round_advance(ev)

    def _round_advance(self, ev: list[Event] | None) -> None:
        """Move the round's turn to the next seat that could throw in; at the round's end
        the defender covers, picks up, or the bout is bito."""
        order = self.rnd_order
        pos = self.rnd_pos + 1
        room = len(self.att) < self.cap
        hands = self.hands
        tr = self.tranks
        while pos < len(order):
            if room and hands[order[pos]] & tr:
                self.rnd_pos = pos
                return
            pos += 1
        self.rnd_pos = -1
        if self.taking:
            self._end_bout(False, ev)
        elif self.rnd_added and -1 in self.cov:
            return  # the defender covers the new cards
        else:
            self._end_bout(True, ev)

    def _end_bout(self, bito: bool, ev: list[Event] | None) -> None:
        """The table goes to the discard (``bito``) or to the defender's hand."""
        d = self.defender
        table = 0
        for c in self.att:
            table |= 1 << c
        for c in self.cov:
            if c >= 0:
                table |= 1 << c
        count = table.bit_count()
        if bito:
            self.discard |= table
            self.bito_done = True
            nxt = d
            if ev is not None:
                ev.append(Event("bito", d, count=count))
        else:
            self.hands[d] |= table
            nxt = -1
            if ev is not None:
                ev.append(Event("took", d, count=count))
        self._bout_over(nxt, ev)

    def _bout_over(self, nxt: int, ev: list[Event] | None) -> None:
        """Clear the table, draw, find who is out, decide the game or start the next bout.
        ``nxt`` is the seat that should attack next, or -1 for "the player after the
        defender" (after a take)."""
        d = self.defender
        self.att = []
        self.cov = []
        self.tranks = 0
        self.taking = False
        self.passed = 0
        self.shown = 0
        self.joker_covered = False
        self.rnd_pos = -1
        self.out_bout = []
        hands = self.hands
        n = self.n
        stock = self.stock
        if stock:
            lead = self.leader
            order = [(lead + i) % n for i in range(n)]
            order.remove(d)
            order.append(d)
            out_mask = self.out_mask
            for s in order:
                if out_mask >> s & 1:
                    continue
                need = 6 - hands[s].bit_count()
                if need <= 0:
                    continue
                got = need if need < len(stock) else len(stock)
                for c in stock[-got:]:
                    hands[s] |= 1 << c
                del stock[-got:]
                if ev is not None:
                    ev.append(Event("draw", s, count=got))
                if not stock:
                    break
        if not stock:
            newly = [s for s in range(n) if not hands[s] and not self.out_mask >> s & 1]
            if newly:
                self.places.append(newly)
                for s in newly:
                    self.out_mask |= 1 << s
                    if ev is not None:
                        ev.append(Event("out", s, count=len(self.places)))
            self.out_bout = newly
        if self._check_over(d, ev):
            return
        if nxt < 0 or not hands[nxt]:
            nxt = self._next_with_cards(d)
        self._start_bout(nxt, ev)

    def _check_over(self, d: int, ev: list[Event] | None) -> bool:
        """After a bout whose defender was ``d``: finish the game if it is decided."""
        if self.stock:  # nobody is out while the stock lasts
            return False
        hands = self.hands
        alive = [s for s in range(self.n) if hands[s]]
        if self.rules.teams:
            teams_alive = {s % 2 for s in alive}
            if len(teams_alive) == 2:
                return False
            if len(teams_alive) == 1:  # the team still holding cards loses
                loser = teams_alive.pop()
                self._finish(Result(self.places, None, (loser, loser + 2)), ev)
                return True
            if self.rules.draws:
                self._finish(
                    Result(self.places, draw=True, reason="draw",
                           drawn_seats=tuple(self.out_bout)), ev)
            else:
                self._drop_from_last_place(d)
                self._finish(Result(self.places, None, (d % 2, d % 2 + 2)), ev)
            return True
        if len(alive) >= 2:
            return False
        if len(alive) == 1:
            self._finish(Result(self.places, alive[0]), ev)
        elif self.rules.draws:
            self._finish(
                Result(self.places, draw=True, reason="draw", drawn_seats=tuple(self.out_bout)),
                ev,
            )
        else:
            self._drop_from_last_place(d)
            self._finish(Result(self.places, d), ev)
        return True

    def _drop_from_last_place(self, seat: int) -> None:
        last = self.places[-1]
        if seat in last:
            last.remove(seat)
            if not last:
                self.places.pop()

    def _finish(self, result: Result, ev: list[Event] | None) -> None:
        self.phase = OVER
        self.rnd_pos = -1
        self.result_ = replace(result, places=[p[:] for p in result.places])
        if ev is not None:
            ev.append(Event("game_over", result.fool))

    def _finish_move_cap(self, ev: list[Event] | None) -> None:
        holders = tuple(s for s in range(self.n) if self.hands[s])
        self._finish(
            Result(self.places, draw=True, reason="move_cap", drawn_seats=holders), ev
        )

    def _start_bout(self, attacker: int, ev: list[Event] | None) -> None:
        """Make ``attacker`` (who holds cards) lead against the next opponent."""
        if self.stage == 2 and not self.hands[attacker] & _LOW:
            alive = [s for s in range(self.n) if self.hands[s]]
            if all(not self.hands[s] & _LOW for s in alive):
                self._finish(
                    Result(self.places, draw=True, reason="jokers_only", drawn_seats=tuple(alive)),
                    ev,
                )
                return
            if self.rules.joker_last == "defence_only":
                while not self.hands[attacker] & _LOW:
                    if ev is not None:
                        ev.append(Event("skip", attacker))
                    attacker = self._next_with_cards(attacker)
        d = self._next_opponent(attacker)
        self.attacker = attacker
        self.leader = attacker
        self.defender = d
        self.dstart = self.hands[d].bit_count()
        self.cap = self._limit(self.dstart)
        self.thr = tuple(self._throwers())
        self.phase = LEAD
        self.lead_size = 0

    # ------------------------------------------------------------------ views & JSON

    def view(self, seat: int) -> View:
        """What ``seat`` may see: its own hand, every public fact, counts of the rest."""
        from .views import build_view

        return build_view(self, seat, full=False)

    def spectator_view(self) -> View:
        """What a spectator may see: no hand at all."""
        from .views import build_view

        return build_view(self, None, full=False)

    def full_view(self) -> View:
        """Every card, for the replay after the game (and for tests)."""
        from .views import build_view

        return build_view(self, None, full=True)

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; :meth:`from_json` restores it exactly."""
        from .codec import state_to_json

        return state_to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """The state :meth:`to_json` wrote."""
        from .codec import state_from_json

        return state_from_json(data)

    def places_of_cards(self) -> dict[str, int]:
        """Where every card is, as masks (for conformance checks)."""
        table = 0
        for c in self.att:
            table |= 1 << c
        for c in self.cov:
            if c >= 0:
                table |= 1 << c
        stock = 0
        for c in self.stock:
            stock |= 1 << c
        circle = 0
        for c in self.circle:
            circle |= 1 << c
        if self.center >= 0:
            circle |= 1 << self.center
        if self.drawn >= 0:
            circle |= 1 << self.drawn
        out = {f"hand{s}": h for s, h in enumerate(self.hands)}
        out.update(table=table, stock=stock, discard=self.discard, circle=circle)
        return out
