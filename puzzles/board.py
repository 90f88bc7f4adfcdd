"""A puzzle's board at one step of its line: every hand face up (the match is over and the
position one of perfect information, so nothing here is secret), the table, the trump, the seat
to solve and its legal moves in notation."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Action, GameState
from puzzles.models import Attempt, Puzzle


@dataclass(frozen=True, slots=True)
class Feedback:
    """What the last move did: a refusal (``message``), a right move, or the end (``done``)."""

    message: str = ""
    right: bool = False
    done: bool = False
    solved: bool = False
    wrong: str = ""
    attempt: Attempt | None = None

    @property
    def change(self) -> int | None:
        if self.attempt is None:
            return None
        return round(self.attempt.rating_after - self.attempt.rating_before)


@dataclass(frozen=True, slots=True)
class Board:
    seat: int
    hands: tuple[tuple[int, tuple[str, ...]], ...]
    table: tuple[tuple[str, str | None], ...]
    trump_card: str | None
    trump_suit: str
    discard_count: int
    legal: tuple[str, ...]
    played: tuple[tuple[int, str], ...]
    step: int
    steps: int


def step_state(puzzle: Puzzle, step: int) -> GameState:
    """The position after the line's first ``step`` decisions and their replies."""
    state = GameState.from_position(puzzle.position)
    for entry in puzzle.steps[:step]:
        state.apply(puzzle.seat, Action.parse(entry["play"]))
        for seat, text in entry["replies"]:
            state.apply(int(seat), Action.parse(text))
    return state


def board_at(puzzle: Puzzle, step: int) -> Board:
    state = step_state(puzzle, min(step, len(puzzle.steps)))
    full_view = state.full_view()
    played: list[tuple[int, str]] = []
    for entry in puzzle.steps[:step]:
        played.append((puzzle.seat, entry["play"]))
        played += [(int(seat), text) for seat, text in entry["replies"]]
    return Board(
        seat=puzzle.seat,
        hands=tuple((seat, tuple(cards)) for seat, cards in enumerate(full_view.hands or ())),
        table=tuple(full_view.table),
        trump_card=full_view.trump_card,
        trump_suit=full_view.trump_suit,
        discard_count=full_view.discard_count,
        legal=tuple(str(a) for a in state.legal_actions(puzzle.seat)) if not state.is_over else (),
        played=tuple(played),
        step=step,
        steps=len(puzzle.steps),
    )
