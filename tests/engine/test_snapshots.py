"""Stored snapshots (``Match.snapshot``, the state's ``to_json()``) load and play on: the first
format, with its abbreviated names (``att``, ``cov``, ``thr``, ``tranks``, ``dstart``,
``cap``...), and the current one, which spells every field out.

``snapshots/format-1.json`` was written by the engine of the first format (the commit before
format 2): snapshots of seven tables at random steps of random games, each with the actions
that followed, their events, and every seat's legal actions after them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import Action, GameState, Rules, new_game

FORMAT_1: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "snapshots" / "format-1.json").read_text()
)


@pytest.mark.parametrize("stored", FORMAT_1, ids=[f"snapshot-{i}" for i in range(len(FORMAT_1))])
def test_a_format_1_snapshot_plays_on_as_it_did(stored: dict[str, Any]) -> None:
    """The stored actions play on with the same events. They were recorded before throwers
    with nothing to throw were awaited (``docs/rules.md`` §3 "Waiting for the throwers"), so
    those throwers' passes, which the old engine made by itself, are played here first and
    their pass events left out of the comparison."""
    state = GameState.from_json(stored["snapshot"])
    for (seat, text), events in zip(stored["actions"], stored["events"], strict=True):
        action = Action.parse(text)
        if not state.is_legal(seat, action):
            assert _pass_idle_throwers(state)
        played = [e.to_dict() for e in state.apply(seat, action)]
        played += [e for e in _pass_idle_throwers(state) if e["kind"] != "pass"]
        assert played == events
    legal = {str(seat): sorted(str(a) for a in state.legal_actions(seat)) for seat in range(state.n)}
    # a thrower with nothing to throw now has the pass where the old engine offered nothing
    old_style = {k: [] if v == ["pass"] and stored["legal"][k] == [] else v for k, v in legal.items()}
    assert old_style == stored["legal"]
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()


def _pass_idle_throwers(state: GameState) -> list[dict[str, Any]]:
    """The passes of awaited throwers whose only legal action is the pass, until none is left."""
    out: list[dict[str, Any]] = []
    while True:
        idle = [t for t in sorted(state.awaiting()) if [str(a) for a in state.legal_actions(t)] == ["pass"]]
        if not idle or state.awaiting().get(idle[0]) not in ("throw_in", "take_more"):
            return out
        out += [e.to_dict() for e in state.apply(idle[0], Action.parse("pass"))]


def test_format_2_spells_every_field_out() -> None:
    data = new_game(Rules.for_variant("circle", 3), seed="names").to_json()
    assert data["format"] == 2
    spelled = {"attack_cards", "covers", "throwers", "defender_start", "attack_limit", "round_order"}
    assert spelled <= set(data)
    assert not {"att", "cov", "thr", "tranks", "dstart", "cap"} & set(data)
