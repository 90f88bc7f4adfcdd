"""Random legal play through the fast internal API (bench, soak tests, bot rollouts).

The policy: a uniformly random seat among :meth:`GameState.actors`, then a uniformly
random legal action of that seat.
"""

from __future__ import annotations

import random

from .phases import OVER
from .state import GameState


def random_playout(state: GameState, rng: random.Random) -> int:
    """Play random legal actions until the game is over; returns the number of actions."""
    rnd = rng.random
    steps = 0
    while state.phase != OVER:
        seats = state.actors()
        k = len(seats)
        seat = seats[0] if k == 1 else seats[int(rnd() * k)]
        legal = state.legal_fast(seat)
        k = len(legal)
        state.apply_fast(seat, legal[0] if k == 1 else legal[int(rnd() * k)])
        steps += 1
    return steps
