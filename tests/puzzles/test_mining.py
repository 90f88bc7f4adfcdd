"""The miner's proofs (issue #40 §2): each mined line is checked move by move against a
brute-force minimax written here, independent of the endgame solver; the command and the task are
idempotent and remember what they read."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from django.core.management import call_command

from games.engine import Action, GameRecord, GameState, Rules
from games.engine.phases import OVER
from games.models import Match
from puzzles.mining import mine
from puzzles.models import MinerCursor, Puzzle
from puzzles.services import mine_new
from puzzles.tasks import mine as mine_task
from tests.play.services_support import make_user
from tests.puzzles.support import seeded_matches


class Repeats(Exception):
    """A position came round again on the search path."""


def value(s: GameState, me: int, memo: dict[str, float], path: set[str]) -> float:
    """``me``'s value with perfect play (1 not the fool, 0.5 a draw, 0 the fool): every legal move
    of every position searched, the player to move as the game's wait list says."""
    if s.phase == OVER:
        r = s.game_result
        return 0.5 if r is None or r.draw else (0.0 if r.fool == me else 1.0)
    key = s.position()
    if key in memo:
        return memo[key]
    if key in path:
        raise Repeats
    path.add(key)
    mover = next(iter(s.awaiting()))
    # Exact minimax; a side stops looking once it has the best value there is (1 for ``me``, 0
    # against), so every stored value is still the position's exact one.
    best = 0.0 if mover == me else 1.0
    for action in s.legal_actions(mover):
        child = s.clone()
        child.apply(mover, action)
        v = value(child, me, memo, path)
        best = max(best, v) if mover == me else min(best, v)
        if best == (1.0 if mover == me else 0.0):
            break
    path.discard(key)
    memo[key] = best
    return best


def after(s: GameState, seat: int, text: str) -> GameState:
    child = s.clone()
    child.apply(seat, Action.parse(text))
    return child


def check_line(position: str, seat: int, steps: list[dict[str, Any]]) -> None:
    """Each step: the accepted moves are exactly the safe ones, some move loses, and the line ends
    where nothing the player does matters any more."""
    memo: dict[str, float] = {}
    state = GameState.from_position(position)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    for step in steps:
        safe = {
            str(a)
            for a in state.legal_actions(seat)
            if value(after(state, seat, str(a)), seat, memo, set()) >= 0.5
        }
        assert safe == set(step["accept"])
        assert len(safe) < len(state.legal_actions(seat))
        state.apply(seat, Action.parse(str(step["play"])))
        for mover, text in step["replies"]:
            state.apply(int(mover), Action.parse(text))
    assert value(state, seat, memo, set()) >= 0.5
    if state.phase != OVER:
        assert all(
            value(after(state, seat, str(a)), seat, memo, set()) >= 0.5 for a in state.legal_actions(seat)
        )


def played_kinds(position: str, seat: int, steps: list[dict[str, Any]]) -> set[str]:
    """The kinds of the solver's moves along the line, an attack onto a table with cards on it
    counted as a ``throw-in``."""
    state = GameState.from_position(position)
    kinds = set()
    for step in steps:
        action = Action.parse(str(step["play"]))
        kinds.add("throw-in" if action.kind == "attack" and state.attack_cards else action.kind)
        state.apply(seat, action)
        for mover, text in step["replies"]:
            state.apply(int(mover), Action.parse(text))
    return kinds


@pytest.mark.django_db
def test_every_mined_line_is_proved_by_brute_force_and_the_command_is_idempotent() -> None:
    users = [make_user(name) for name in ("ada", "bo", "cy")]
    matches = seeded_matches(users)
    call_command("mine_puzzles")
    puzzles = list(Puzzle.objects.all())
    assert len(puzzles) == 5
    assert sum(p.blunder for p in puzzles) == 3
    # The themes are read from the line: a transfer played, a card thrown in onto the table.
    assert {theme for p in puzzles for theme in p.themes} == {"endgame", "throw_in", "transfer"}
    for puzzle in puzzles:
        kinds = played_kinds(puzzle.position, puzzle.seat, puzzle.steps)
        assert ("transfer" in puzzle.themes) == bool(kinds & {"transfer", "show"})
        assert ("throw_in" in puzzle.themes) == ("throw-in" in kinds)
    for puzzle in puzzles:
        check_line(puzzle.position, puzzle.seat, puzzle.steps)
        # The position is the match's own after ``ply`` actions, and the seat was to move there.
        match = puzzle.match
        record = GameRecord(
            Rules.from_dict(match.rules),
            match.seed,
            match.dealer,
            [(m.seat, m.action) for m in match.moves.order_by("seq")],
        )
        state = record.start()
        for seat, text in record.actions[: puzzle.ply]:
            state.apply(seat, Action.parse(text))
        assert state.position() == puzzle.position
        assert record.actions[puzzle.ply][0] == puzzle.seat
        assert puzzle.themes
    assert MinerCursor.objects.get().last_match_id == matches[-1].pk
    # Run again (command and task): nothing new read, nothing made twice.
    call_command("mine_puzzles")
    mine_task()
    assert Puzzle.objects.count() == 5
    # Even with the cursor wound back, a stored puzzle is not made again.
    MinerCursor.objects.update(last_match_id=0)
    assert mine_new() == (len(matches), 0)


@pytest.mark.django_db
def test_the_cursor_waits_for_a_match_still_in_play() -> None:
    users = [make_user(name) for name in ("ada", "bo", "cy")]
    matches = seeded_matches(users)
    Match.objects.filter(pk=matches[1].pk).update(status=Match.Status.ACTIVE)
    assert mine_new() == (1, 1)
    assert MinerCursor.objects.get().last_match_id == matches[0].pk


def test_a_three_player_record_is_not_mined() -> None:
    assert mine(GameRecord(Rules.for_variant("podkidnoy", players=3), "x", 0)) is None
