"""The ``strong`` bot: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

Single-observer ISMCTS: every iteration deals the cards the bot cannot see afresh (the engine's
:class:`games.engine.InfoState` samples a state consistent with what the seat saw), walks one tree of
action sequences with UCB1 restricted to the actions legal in that deal (each child counts how
often it was available), adds one node (progressive widening: a node tries its moves one
by one, the heuristic's first, as its visits grow), plays the game out with the ``medium`` heuristic
(a little noise keeps the playouts varied: good playouts matter more than many of them; a
two-player playout stops at the first lead after the stock ran out and is valued there by a
static evaluation, :mod:`games.bots.evaluation`, unless the stock had already run out at the
decision) and backs up each seat's result: 1 not the fool, 0 the fool, 0.5 a draw, team by team
in a team game, so a bot never plays against its partner. The most visited move wins (the
heuristic's counted ``PRIOR_VISITS`` ahead).

Two shortcuts before any search: a seat that may throw in while the defender still has cards
to answer waits (passes), since throwing in later knows more; and a two-player position
with an empty stock (or only the turned-up trump in it), where a careful player knows every
card, is solved exactly (:mod:`games.bots.endgame`) when the solver finds a win or a draw
in time.

Budget (:mod:`games.bots.budget`): iterations, and the solver's nodes, per decision, with the
thread's CPU time as the cap and wall time only as a safety net; the strong bot may spend most of
its think wait (``THINK_SECONDS``), which the site waits out anyway. With the same seed a decision
is reproducible whenever the work budget, not a clock, ends it. A short search keeps the
heuristic's move unless another leads it by ``PRIOR_VISITS`` visits.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.actions import PASS, Action, FastAction
from games.engine.infostate import EventLike, InfoState
from games.engine.phases import LEAD, OVER
from games.engine.rules import Rules
from games.engine.state import GameState

from .bitplayout import covers, play
from .budget import Budget, Meter
from .easy import redeal_if_weak
from .endgame import solve
from .evaluation import stock_out_values
from .heuristic import cheapest, heuristic_move, plain_lead
from .inference import ReadInfoState

#: The strong bot's budget per decision: 0.3 s of CPU within its think wait of 0.6 s
#: (``games.bots.THINK_SECONDS``). With the bitmask playout that buys about the iterations that
#: 0.5 s bought the engine's playout (measured in play: 1,625 a searched decision against 1,810-
#: 2,126), for 40 % of the CPU, so a machine holds twice the tables against it (docs/bots.md,
#: "Capacity"). The wall ceiling keeps a starved search's answer within the think wait plus 0.4 s.
STRONG_BUDGET = Budget(iterations=6000, cpu_s=0.3, wall_s=1.0, nodes=60_000)
EXPLORATION = 0.7
PLAYOUT_NOISE = 0.08
#: Progressive widening: a node visited ``v`` times tries at most ``1 + WIDENING * sqrt(v)``
#: of its moves, in :func:`next_untried` order.
WIDENING = 2.0
#: Progressive bias: the heuristic's move gets ``HEURISTIC_BIAS / (visits + 1)`` on top of its
#: UCB score, so a search with few iterations (long circle games) trusts the heuristic
#: until the samples say otherwise.
HEURISTIC_BIAS = 1.0
#: The exact endgame search is tried when the two hands hold at most this many cards together.
ENDGAME_CARDS = 16
#: The share of the CPU budget the exact search may use before sampling takes over (its nodes
#: are the budget that binds; this share only matters on a slow core).
ENDGAME_SHARE = 0.6
#: A short search's guard against noise: the heuristic's root move counts this many visits more
#: when the most visited move is picked, so another move must lead it by that margin.
PRIOR_VISITS = 24


class Node:
    """Statistics of the action leading here, from the point of view of ``seat``, who chose it."""

    __slots__ = ("avail", "bias", "children", "seat", "total", "visits")

    def __init__(self, seat: int, bias: float = 0.0) -> None:
        self.seat = seat
        self.bias = bias
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[FastAction, Node] = {}


def rewards(s: GameState) -> list[float]:
    """Each seat's value of a finished game: 1 safe, 0 lost (fool or losing team), 0.5 drawn."""
    r = s.game_result
    out = [1.0] * s.players
    if r is None:
        return [0.5] * s.players
    if r.draw:
        for seat in r.drawn_seats:
            out[seat] = 0.5
    elif r.losing_team is not None:
        for seat in r.losing_team:
            out[seat] = 0.0
    elif r.fool is not None:
        out[r.fool] = 0.0
    return out


def next_untried(
    s: GameState, seat: int, legal: list[FastAction], children: dict[FastAction, Node]
) -> tuple[FastAction, bool]:
    """The move a node tries next, and whether it is the heuristic's: the heuristic's choice
    first, then the cheapest cards (covers before taking,
    :func:`games.bots.heuristic.cheapest_first`), so a wide node (a circle lead may have hundreds
    of moves) spends its few visits on plausible ones."""
    first = heuristic_move(s, seat, legal)
    if first not in children:
        return first, True
    return cheapest(s, [f for f in legal if f not in children]), False


def mover(s: GameState) -> int:
    """The seat that acts next in a search: the first seat the game waits for."""
    return s.first_awaited()


def playout(
    s: GameState, rng: random.Random, noise: float = PLAYOUT_NOISE, *, evaluate: bool = False
) -> list[float]:
    """Each seat's value of playing on with the heuristic (a random legal move with probability
    ``noise``): to the end of the game, or with ``evaluate`` in a two-player game to the first
    lead after the stock ran out, valued there by :func:`games.bots.evaluation.stock_out_values`.
    A two-player podkidnoy or perevodnoy game plays in the bitmask loop of
    :mod:`games.bots.bitplayout`, any other through the engine (:func:`engine_playout`): the
    same moves and the same result either way."""
    if covers(s):
        return play(s, rng, noise, evaluate)
    return engine_playout(s, rng, noise, evaluate=evaluate)


def engine_playout(
    s: GameState, rng: random.Random, noise: float = PLAYOUT_NOISE, *, evaluate: bool = False
) -> list[float]:
    """:func:`playout` through the engine's ``legal_fast`` and ``apply_fast``, for every game."""
    rnd = rng.random
    cut = evaluate and s.players == 2 and s.stage == 0
    while s.phase != OVER:
        if cut and s.phase == LEAD and not s.stock:
            return stock_out_values(s)
        seat = s.first_awaited()
        if s.phase == LEAD and s.one_rank_leads and rnd() >= noise:
            s.apply_fast(seat, plain_lead(s, seat))
            continue
        legal = s.legal_fast(seat)
        if len(legal) == 1:
            f = legal[0]
        elif rnd() < noise:
            f = legal[int(rnd() * len(legal))]
        else:
            f = heuristic_move(s, seat, legal)
        s.apply_fast(seat, f)
    return rewards(s)


class Search:
    """One decision's tree search over determinizations of the seat's information set."""

    def __init__(
        self,
        info: InfoState,
        legal: list[FastAction],
        rng: random.Random,
        prior_visits: int = 0,
        evaluate: bool = False,
    ) -> None:
        self.info = info
        #: Whether two-player playouts stop at the stock's end (:func:`playout`) when the stock
        #: still lasts at the decision; the review (:mod:`games.bots.assess`) plays them out.
        self.evaluate = evaluate
        self.me = info.seat
        self.legal = legal
        self.rng = rng
        self.root = Node(-1)
        self.iterations = 0
        #: The visits the heuristic's root move counts ahead in :meth:`best` (0: none).
        self.prior_visits = prior_visits
        #: The heuristic's root move: the same in every sample, as it reads only the seat's
        #: own hand and public facts.
        self.heuristic: FastAction | None = None

    @classmethod
    def for_bot(cls, info: InfoState, legal: list[FastAction], rng: random.Random) -> Search:
        """The search as the medium and strong bots run it: the heuristic's prior, and the
        evaluation at the stock's end."""
        return cls(info, legal, rng, prior_visits=PRIOR_VISITS, evaluate=True)

    def iterate(self) -> None:
        rng = self.rng
        s = self.info.sample(rng)
        # A decision taken after the stock ran out plays its endgame out: the evaluation only
        # stands in for an endgame still ahead of the decision.
        evaluate = self.evaluate and bool(s.stock)
        node = self.root
        node_visits = self.iterations
        path: list[Node] = []
        expanded = False
        while s.phase != OVER and not expanded:
            seat = self.me if node is self.root else mover(s)
            legal = self.legal if node is self.root else s.legal_fast(seat)
            children = node.children
            get = children.get
            tried = [(g, c) for g in legal if (c := get(g)) is not None]
            if len(tried) < len(legal) and len(tried) <= WIDENING * math.sqrt(node_visits):
                f, preferred = next_untried(s, seat, legal, children)
                child = children[f] = Node(seat, HEURISTIC_BIAS if preferred else 0.0)
                if node is self.root and self.heuristic is None:
                    self.heuristic = f  # the root's first move is the heuristic's
                tried.append((f, child))
                expanded = True
            else:
                f, child = self._select(tried)
            for _, c in tried:
                c.avail += 1
            s.apply_fast(seat, f)
            path.append(child)
            node = child
            node_visits = child.visits
        values = playout(s, rng, evaluate=evaluate)
        for n in path:
            n.visits += 1
            n.total += values[n.seat]
        self.iterations += 1

    @staticmethod
    def _select(tried: list[tuple[FastAction, Node]]) -> tuple[FastAction, Node]:
        """The tried move of the highest UCB1 score (with the heuristic's fading bias)."""
        best_f, best = tried[0]
        best_score = -1.0
        log = math.log
        sqrt = math.sqrt
        for f, c in tried:
            v = c.visits
            score = c.total / v + EXPLORATION * sqrt(log(c.avail + 1) / v) + c.bias / (v + 1)
            if score > best_score:
                best_f, best, best_score = f, c, score
        return best_f, best

    def _counted(self, f: FastAction) -> int:
        """The root move's visits as :meth:`best` counts them (the heuristic's with its prior)."""
        node = self.root.children.get(f)
        visits = node.visits if node is not None else 0
        return visits + self.prior_visits if f == self.heuristic else visits

    def settled(self, left: int) -> bool:
        """Whether ``left`` more iterations could no longer change the move :meth:`best` picks."""
        counted = sorted((self._counted(f) for f in self.legal), reverse=True)
        return len(counted) < 2 or counted[0] - counted[1] > left

    def best(self) -> FastAction:
        """The most visited root move, the heuristic's counted ``prior_visits`` ahead (ties: the
        higher mean value)."""
        stats = self.root.children
        return max(
            self.legal,
            key=lambda f: (self._counted(f), stats[f].total / stats[f].visits) if f in stats else (0, 0.0),
        )


@dataclass(frozen=True, slots=True)
class Decision:
    """A searched decision and what it cost: the move, the search's iterations, the thread's CPU
    seconds, and whether the exact endgame solver decided it."""

    action: Action
    iterations: int = 0
    cpu_s: float = 0.0
    solved: bool = False


def choose_strong(
    seat_view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    *,
    rules: Rules | None = None,
    history: Iterable[EventLike] | None = None,
    budget: Budget = STRONG_BUDGET,
    late: float = 0.0,
) -> Action:
    """The strong bot's choice for ``seat_view.viewer`` among ``legal_actions``.

    ``rules`` (inferred from the view when absent) and ``history`` (the public events since
    the game began: without it the bot knows less, nothing breaks) are everything it reads
    besides the view. ``late``: the seconds the turn was picked up after it was due
    (:meth:`Budget.after`).
    """
    return decide_strong(
        seat_view, legal_actions, seed, rules=rules, history=history, budget=budget, late=late
    ).action


def decide_strong(
    seat_view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    *,
    rules: Rules | None = None,
    history: Iterable[EventLike] | None = None,
    budget: Budget = STRONG_BUDGET,
    late: float = 0.0,
) -> Decision:
    """:func:`choose_strong`'s move with what it cost (the site's metrics count the iterations)."""
    return search_move(
        seat_view,
        legal_actions,
        seed,
        rules,
        history,
        budget.after(late),
        careful=True,
        endgame=True,
        reads=True,
    )


def search_move(
    seat_view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    rules: Rules | None,
    history: Iterable[EventLike] | None,
    budget: Budget,
    *,
    careful: bool,
    endgame: bool,
    reads: bool = False,
) -> Decision:
    """A searched move within ``budget``: ``careful`` remembers the discard by face,
    ``endgame`` allows the exact two-player endgame search, ``reads`` weights the deals by the
    other players' choices (:mod:`.inference`)."""
    meter = Meter(budget)
    redeal = redeal_if_weak(seat_view, legal_actions)
    if redeal is not None:
        return Decision(redeal)
    choices = [a for a in legal_actions if a.kind != "redeal"] or list(legal_actions)
    if len(choices) == 1:
        return Decision(choices[0])
    legal = [a.to_fast() for a in choices]
    me = int(seat_view.viewer)
    awaiting = {int(k) for k in seat_view.awaiting}
    pass_action = next((f for f in legal if f[0] == PASS), None)
    if me not in awaiting and pass_action is not None:
        return Decision(Action.from_fast(pass_action))
    info = (ReadInfoState if reads else InfoState)(seat_view, rules, history, remember_discard=careful)
    rng = random.Random(seed)
    if (
        endgame
        and seat_view.players == 2
        and seat_view.stock_count <= 1
        and sum(seat_view.hand_counts) <= ENDGAME_CARDS
        and seat_view.stage != 1
        and info.unknown_discard == 0
        and info.unknown_stock == 0
    ):
        state = info.sample(rng)
        solved = solve(state, me, legal, node_budget=budget.nodes, meter=meter, cpu_share=ENDGAME_SHARE)
        if solved is not None:
            return Decision(Action.from_fast(solved[0]), cpu_s=meter.cpu(), solved=True)
    search = Search.for_bot(info, legal, rng)
    run(search, meter)
    return Decision(Action.from_fast(search.best()), search.iterations, meter.cpu())


def run(search: Search, meter: Meter) -> None:
    """Iterate ``search`` until its budget's iterations or CPU time are spent, the wall ceiling is
    reached, or the remaining iterations (counted at the CPU rate so far) could no longer change
    the move."""
    budget = meter.budget
    cpu0 = meter.cpu()
    while search.iterations < budget.iterations:
        search.iterate()
        cpu = meter.cpu()
        per_iteration = max(cpu - cpu0, 1e-9) / search.iterations
        left = min(budget.iterations - search.iterations, int((budget.cpu_s - cpu) / per_iteration))
        if left <= 0 or meter.wall_out() or search.settled(left):
            break
