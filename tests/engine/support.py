"""What the engine tests ask of a state beyond the engine's API: where every card is, and a fast
action's notation."""

from __future__ import annotations

from games.engine import Action, GameState
from games.engine.actions import FastAction
from games.engine.bout.table import table_mask


def places_of_cards(state: GameState) -> dict[str, int]:
    """Where every card is, as masks (for conformance checks)."""
    stock = 0
    for c in state.stock:
        stock |= 1 << c
    circle = 0
    for c in state.circle:
        circle |= 1 << c
    if state.center >= 0:
        circle |= 1 << state.center
    if state.drawn >= 0:
        circle |= 1 << state.drawn
    out = {f"hand{s}": h for s, h in enumerate(state.hands)}
    out.update(table=table_mask(state), stock=stock, discard=state.discard, circle=circle)
    return out


def fast_str(fast: FastAction) -> str:
    """The canonical notation of a fast action (as ``str(Action.from_fast(fast))``)."""
    return str(Action.from_fast(fast))
