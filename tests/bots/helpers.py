"""Shared helpers of the bot tests: a game loop for bots (the table kinds are
``tests/engine/tables.py``)."""

from __future__ import annotations

from collections.abc import Callable

from games.engine import Action, Event, GameState, Rules, new_game

Bot = Callable[[object, list[Action], str, Rules, list[Event]], Action]


def play(rules: Rules, seed: str, bot: Bot, max_steps: int = 2000) -> tuple[GameState, list[Event]]:
    """Play a game where ``bot`` answers for every seat the game waits for; every answer must
    be one of the seat's legal actions."""
    history: list[Event] = []
    state = new_game(rules, seed=seed, events=history)
    for step in range(max_steps):
        if state.is_over:
            break
        seat = next(iter(state.awaiting()))
        legal = state.legal_actions(seat)
        action = bot(state.view(seat), legal, f"{seed}:{step}", rules, history)
        assert action in legal, (str(action), [str(a) for a in legal])
        history.extend(state.apply(seat, action))
    assert state.is_over
    return state, history
