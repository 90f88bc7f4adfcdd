"""Random legal play through the fast internal API (bench, soak tests, bot rollouts).

The policy: a uniformly random seat among :meth:`GameState.actors`, then a uniformly
random legal action of that seat.
"""

from __future__ import annotations

import random

from .state import OVER, GameState


def random_playout(state: GameState, rng: random.Random) -> int:
    """Play random legal actions until the game is over; returns the number of actions."""
    rnd = rng.random
    actors = state.actors
    legal_fast = state.legal_fast
    apply_fast = state.apply_fast
    steps = 0
    while state.phase != OVER:
        seats = actors()
        k = len(seats)
        seat = seats[0] if k == 1 else seats[int(rnd() * k)]
        legal = legal_fast(seat)
        k = len(legal)
        apply_fast(seat, legal[0] if k == 1 else legal[int(rnd() * k)])
        steps += 1
    return steps
