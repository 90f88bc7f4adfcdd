"""The ``strong`` bot: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

Single-observer ISMCTS: every iteration deals the cards the bot cannot see afresh (the engine's
:class:`games.engine.InfoState` samples a state consistent with what the seat saw), walks one tree of
action sequences with UCB1 restricted to the actions legal in that deal (each child counts how
often it was available), adds one node (progressive widening: a node tries its moves one
by one, the heuristic's first, as its visits grow), plays the game out with the ``medium`` heuristic
(a little noise keeps the playouts varied: good playouts matter more than many of them) and
backs up each seat's result: 1 not the fool, 0 the fool, 0.5 a draw, team by team in a team
game, so a bot never plays against its partner. The most visited move wins.

Two shortcuts before any search: a seat that may throw in while the defender still has cards
to answer waits (passes), since throwing in later knows more; and a two-player position
with an empty stock (or only the turned-up trump in it), where a careful player knows every
card, is solved exactly (:mod:`games.bots.endgame`) when the solver finds a win or a draw
in time.

Budget: ``iterations`` per move with a wall-clock cap (``time_ms``, default 300). With the
same seed a decision is reproducible whenever the iteration budget, not the clock, ends it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from typing import Any

from games.engine.actions import PASS, Action, FastAction
from games.engine.infostate import EventLike, InfoState
from games.engine.phases import LEAD, OVER
from games.engine.rules import Rules
from games.engine.state import GameState

from .easy import redeal_if_weak
from .endgame import solve
from .heuristic import cheapest_first, heuristic_move, plain_lead

DEFAULT_TIME_MS = 300
DEFAULT_ITERATIONS = 4000
EXPLORATION = 0.7
PLAYOUT_NOISE = 0.08
#: Progressive widening: a node visited ``v`` times tries at most ``1 + WIDENING * sqrt(v)``
#: of its moves, in :func:`ranked` order.
WIDENING = 2.0
#: Progressive bias: the heuristic's move gets ``HEURISTIC_BIAS / (visits + 1)`` on top of its
#: UCB score, so a search with few iterations (long circle games) trusts the heuristic
#: until the samples say otherwise.
HEURISTIC_BIAS = 1.0
#: The exact endgame search is tried when the two hands hold at most this many cards together.
ENDGAME_CARDS = 16
#: The share of the move time the exact search may use before sampling takes over.
ENDGAME_SHARE = 0.6


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
    r = s.outcome
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


def ranked(s: GameState, seat: int, legal: list[FastAction]) -> list[FastAction]:
    """The order in which a node tries its moves: the heuristic's choice, then the cheapest
    cards first (covers before taking), so a wide node (a circle lead may have hundreds of
    moves) spends its few visits on plausible ones."""
    first = heuristic_move(s, seat, legal)
    return [first, *cheapest_first(s, [f for f in legal if f != first])]


def mover(s: GameState) -> int:
    """The seat that acts next in a search: the first seat the game waits for."""
    return next(iter(s.awaiting()))


def playout(s: GameState, rng: random.Random, noise: float = PLAYOUT_NOISE) -> None:
    """Finish the game with the heuristic (a random legal move with probability ``noise``)."""
    rnd = rng.random
    while s.phase != OVER:
        seat = next(iter(s.awaiting()))
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


class Search:
    """One decision's tree search over determinizations of the seat's information set."""

    def __init__(self, info: InfoState, legal: list[FastAction], rng: random.Random) -> None:
        self.info = info
        self.me = info.seat
        self.legal = legal
        self.rng = rng
        self.root = Node(-1)
        self.iterations = 0

    def iterate(self) -> None:
        rng = self.rng
        s = self.info.sample(rng)
        node = self.root
        node_visits = self.iterations
        path: list[Node] = []
        expanded = False
        while s.phase != OVER and not expanded:
            seat = self.me if node is self.root else mover(s)
            legal = self.legal if node is self.root else s.legal_fast(seat)
            children = node.children
            tried = [f for f in legal if f in children]
            if len(tried) < len(legal) and len(tried) <= WIDENING * math.sqrt(node_visits):
                order = ranked(s, seat, legal)
                f = next(g for g in order if g not in children)
                child = children[f] = Node(seat, HEURISTIC_BIAS if f == order[0] else 0.0)
                tried.append(f)
                expanded = True
            else:
                f, child = self._select(node, tried)
            for g in tried:
                children[g].avail += 1
            s.apply_fast(seat, f)
            path.append(child)
            node = child
            node_visits = child.visits
        playout(s, rng)
        values = rewards(s)
        for n in path:
            n.visits += 1
            n.total += values[n.seat]
        self.iterations += 1

    @staticmethod
    def _select(node: Node, tried: list[FastAction]) -> tuple[FastAction, Node]:
        best_f = tried[0]
        best = node.children[best_f]
        best_score = -1.0
        for f in tried:
            c = node.children[f]
            score = (
                c.total / c.visits
                + EXPLORATION * math.sqrt(math.log(c.avail + 1) / c.visits)
                + c.bias / (c.visits + 1)
            )
            if score > best_score:
                best_f, best, best_score = f, c, score
        return best_f, best

    def settled(self, left: int) -> bool:
        """Whether ``left`` more iterations could no longer change the most visited move."""
        visits = sorted((c.visits for c in self.root.children.values()), reverse=True)
        visits += [0] * (len(self.legal) - len(visits))
        return visits[0] - visits[1] > left

    def best(self) -> FastAction:
        """The most visited root move (ties: the higher mean value)."""
        stats = self.root.children
        return max(
            self.legal,
            key=lambda f: (stats[f].visits, stats[f].total / stats[f].visits) if f in stats else (0, 0.0),
        )


def choose_strong(
    view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    *,
    rules: Rules | None = None,
    history: Iterable[EventLike] | None = None,
    iterations: int = DEFAULT_ITERATIONS,
    time_ms: float = DEFAULT_TIME_MS,
) -> Action:
    """The strong bot's choice for ``view.viewer`` among ``legal_actions``.

    ``rules`` (inferred from the view when absent) and ``history`` (the public events since
    the game began: without it the bot knows less, nothing breaks) are everything it reads
    besides the view.
    """
    return search_move(
        view, legal_actions, seed, rules, history, iterations, time_ms, careful=True, endgame=True
    )


def search_move(
    view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    rules: Rules | None,
    history: Iterable[EventLike] | None,
    iterations: int,
    time_ms: float,
    *,
    careful: bool,
    endgame: bool,
) -> Action:
    """A searched move: ``careful`` remembers the discard by face, ``endgame`` allows the
    exact two-player endgame search."""
    start = time.perf_counter()
    deadline = start + time_ms / 1000
    redeal = redeal_if_weak(view, legal_actions)
    if redeal is not None:
        return redeal
    choices = [a for a in legal_actions if a.kind != "redeal"] or list(legal_actions)
    if len(choices) == 1:
        return choices[0]
    legal = [a.to_fast() for a in choices]
    me = int(view.viewer)
    awaiting = {int(k) for k in view.awaiting}
    pass_action = next((f for f in legal if f[0] == PASS), None)
    if me not in awaiting and pass_action is not None:
        return Action.from_fast(pass_action)
    info = InfoState(view, rules, history, remember_discard=careful)
    rng = random.Random(seed)
    if (
        endgame
        and view.players == 2
        and view.stock_count <= 1
        and sum(view.hand_counts) <= ENDGAME_CARDS
        and view.stage != 1
        and info.unknown_discard == 0
        and info.unknown_stock == 0
    ):
        state = info.sample(rng)
        solved = solve(state, me, legal, deadline=start + ENDGAME_SHARE * time_ms / 1000)
        if solved is not None:
            return Action.from_fast(solved[0])
    search = Search(info, legal, rng)
    began = time.perf_counter()
    while search.iterations < iterations:
        search.iterate()
        now = time.perf_counter()
        per_iteration = (now - began) / search.iterations
        left = min(iterations - search.iterations, int((deadline - now) / per_iteration - 1))
        if left <= 0 or search.settled(left):
            break
    return Action.from_fast(search.best())
