"""An answer to a step, judged by the engine: the step's position, the action applied to it, and
what the learner is told.

Nothing here restates a rule: a move is legal when the engine applies it, and an illegal one is
explained by the engine's own refusal in the learner's language (``games.words.illegal_message``),
so a lesson cannot drift from the game the club plays.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Action, GameState, IllegalAction
from games.words import illegal_message
from learn.lessons import Step


@dataclass(frozen=True, slots=True)
class Verdict:
    """What became of an answer: ``correct``, the engine's ``refusal`` of an illegal one (already
    in words), and ``after``, the game once a legal answer was played."""

    correct: bool
    refusal: str = ""
    after: GameState | None = None


def step_state(step: Step) -> GameState:
    """The step's position, read afresh (a state is changed by every move applied to it)."""
    return GameState.from_position(step.position)


def accepts(step: Step, action: Action) -> bool:
    """Whether ``action`` is what the step asks for (its legality aside)."""
    if step.accept:
        return str(action) in step.accept
    return action.kind in step.kinds and (step.size is None or len(action.cards) == step.size)


def judge(step: Step, action: Action) -> Verdict:
    """Play ``action`` for the step's seat: illegal, legal but not what was asked, or right."""
    state = step_state(step)
    try:
        state.apply(step.seat, action)
    except IllegalAction as error:
        return Verdict(correct=False, refusal=illegal_message(error))
    return Verdict(correct=accepts(step, action), after=state)
