"""The ``medium`` bot: a short search over the planning heuristic (:mod:`.heuristic`).

The heuristic alone only draws level with ``easy``; a few hundred sampled games on top of it
beat it. ``medium`` runs the ``strong`` search (:mod:`.ismcts`) with a small budget (400 iterations),
without remembering the discard by face and without the exact endgame search.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.engine.actions import Action
from games.engine.infostate import EventLike
from games.engine.rules import Rules

from .budget import Budget
from .ismcts import Decision, search_move

#: The medium bot's budget per decision: 400 iterations (about 120 ms of CPU on an idle core),
#: capped at 0.2 s of CPU inside its 0.25 s think wait, and the wall ceiling as a safety net.
MEDIUM_BUDGET = Budget(iterations=400, cpu_s=0.2, wall_s=0.65)


def choose_medium(
    seat_view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    *,
    rules: Rules | None = None,
    history: Iterable[EventLike] | None = None,
    budget: Budget = MEDIUM_BUDGET,
    late: float = 0.0,
) -> Action:
    """The medium bot's choice for ``seat_view.viewer``: a short search guided by the heuristic
    (``late``: see :meth:`Budget.after`)."""
    return decide_medium(
        seat_view, legal_actions, seed, rules=rules, history=history, budget=budget, late=late
    ).action


def decide_medium(
    seat_view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    *,
    rules: Rules | None = None,
    history: Iterable[EventLike] | None = None,
    budget: Budget = MEDIUM_BUDGET,
    late: float = 0.0,
) -> Decision:
    """:func:`choose_medium`'s move with what it cost (the site's metrics count the iterations)."""
    return search_move(
        seat_view, legal_actions, seed, rules, history, budget.after(late), careful=False, endgame=False
    )
