"""Exact search of two-player endgames: once the stock is empty nothing is hidden any more.

With two players, an empty stock (or only the turned-up trump left in it) and a careful
memory of the discard, the opponent's hand is exactly the cards not yet seen, so the
position is one of perfect information and can be solved. :func:`solve` is an AND/OR
search with a transposition table: does the bot have a move after which, whatever the
opponent does, it is not the fool? It asks first for a win, then for at least a draw.
Covers and cheap cards are tried first, taking last, so the usual good move is proved
first. Its budget is counted in nodes (the same answer on an idle or a busy core), with the
decision's :class:`~games.bots.budget.Meter` as a cap (a share of its CPU time, and the wall
ceiling as a safety net); when it runs out it answers ``None`` and the caller searches by
sampling instead.

Turn order follows the game's own wait list: the defender answers before the attacker
throws in (throwing in after the cover is never worse for the attacker: more ranks are
open and it knows more).
"""

from __future__ import annotations

from games.engine.actions import FastAction
from games.engine.phases import OVER
from games.engine.state import GameState

from .budget import Meter
from .heuristic import cheapest_first

#: Deeper lines than this are left to sampling (and keep the recursion shallow).
MAX_DEPTH = 200
#: Proven results, kept between decisions: a position's value does not depend on how it was
#: reached (a repetition aborts the search instead of being stored), so the next move of the
#: same endgame mostly finds its answers here. Cleared when it grows past MAX_PROVEN entries.
_PROVEN: dict[tuple[int, tuple[object, ...], float], bool] = {}
MAX_PROVEN = 400_000


class _OutOfBudget(Exception):
    """The search ran past its node budget or its meter."""


def _key(s: GameState) -> tuple[object, ...]:
    return (
        s.rules,
        s.trump_suit,
        tuple(s.stock),
        tuple(s.hands),
        tuple(s.attack_cards),
        tuple(s.covers),
        s.attacker,
        s.defender,
        s.phase,
        s.taking,
        s.passed,
        s.attack_limit,
        s.shown,
        s.round_position,
        s.round_added,
        s.lead_size,
        s.bito_done,
    )


def outcome(s: GameState, me: int) -> float:
    """The finished game's value for ``me``: 1 not the fool, 0.5 a draw, 0 the fool."""
    r = s.game_result
    if r is None or r.draw:
        return 0.5
    if r.losing_team is not None:
        return 0.0 if me in r.losing_team else 1.0
    return 0.0 if r.fool == me else 1.0


def _ordered(s: GameState, seat: int, legal: list[FastAction]) -> list[FastAction]:
    return cheapest_first(s, legal) if len(legal) > 1 else legal


class EndgameSolver:
    """Solves one perfect-information two-player position for the seat ``me``."""

    def __init__(
        self, me: int, node_budget: int = 60_000, meter: Meter | None = None, cpu_share: float = 1.0
    ) -> None:
        self.me = me
        self.node_budget = node_budget
        self.meter = meter
        self.cpu_cap = meter.budget.cpu_s * cpu_share if meter is not None else 0.0
        self.nodes = 0
        self.memo = _PROVEN
        if len(_PROVEN) > MAX_PROVEN:
            _PROVEN.clear()
        self.path: set[tuple[object, ...]] = set()

    def _reaches(self, s: GameState, target: float) -> bool:
        if s.phase == OVER:
            return outcome(s, self.me) >= target
        position = _key(s)
        key = (self.me, position, target)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if position in self.path or len(self.path) > MAX_DEPTH:
            raise _OutOfBudget  # a position repeats: cards go round; leave it to sampling
        self.nodes += 1
        if self.nodes > self.node_budget or (self.nodes % 64 == 0 and self._metered_out()):
            raise _OutOfBudget
        seat = s.first_awaited()
        mine = seat == self.me
        result = not mine
        self.path.add(position)
        for f in _ordered(s, seat, s.legal_fast(seat)):
            child = s.clone()
            child.apply_fast(seat, f)
            if self._reaches(child, target) == mine:
                result = mine
                break
        self.path.discard(position)
        self.memo[key] = result
        return result

    def _metered_out(self) -> bool:
        meter = self.meter
        return meter is not None and (meter.cpu() > self.cpu_cap or meter.wall_out())

    def best_move(self, s: GameState, legal: list[FastAction]) -> tuple[FastAction, float] | None:
        """A move of ``me`` reaching the best value it can force, with that value; ``None`` when
        the budget ran out, or when every move loses (the caller then plays for the opponent's
        mistakes)."""
        self.path.clear()
        try:
            for target in (1.0, 0.5):
                for f in _ordered(s, self.me, legal):
                    child = s.clone()
                    child.apply_fast(self.me, f)
                    if self._reaches(child, target):
                        return f, target
        except _OutOfBudget:
            return None
        return None


def solve(
    s: GameState,
    me: int,
    legal: list[FastAction],
    node_budget: int = 60_000,
    meter: Meter | None = None,
    cpu_share: float = 1.0,
) -> tuple[FastAction, float] | None:
    """The solved move for ``me`` in ``s`` (see :meth:`EndgameSolver.best_move`) within
    ``node_budget`` nodes and, with a ``meter``, ``cpu_share`` of its CPU budget and its wall
    ceiling."""
    return EndgameSolver(me, node_budget, meter, cpu_share).best_move(s, legal)
