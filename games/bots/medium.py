"""The ``medium`` bot: a short search over the planning heuristic (:mod:`.heuristic`).

The heuristic alone only draws level with ``easy``; a few hundred sampled games on top of it
beat it. ``medium`` runs the ``strong`` search (:mod:`.ismcts`) with a small budget (100 ms),
without remembering the discard by face and without the exact endgame search.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.engine.actions import Action
from games.engine.infostate import EventLike
from games.engine.rules import Rules

from .ismcts import search_move

#: The medium bot's search budget: iterations, and its wall-clock cap in milliseconds.
MEDIUM_ITERATIONS = 400
MEDIUM_TIME_MS = 100


def choose_medium(
    view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    *,
    rules: Rules | None = None,
    history: Iterable[EventLike] | None = None,
    iterations: int = MEDIUM_ITERATIONS,
    time_ms: float = MEDIUM_TIME_MS,
) -> Action:
    """The medium bot's choice for ``view.viewer``: a short search guided by the heuristic."""
    return search_move(
        view, legal_actions, seed, rules, history, iterations, time_ms, careful=False, endgame=False
    )
