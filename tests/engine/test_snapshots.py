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
    """Exactly: its rules predate ``throw_in_waits`` and so read as ``"holders"``, the rule it
    was played under (``docs/rules.md`` §3 "Waiting for the throwers" came later)."""
    state = GameState.from_json(stored["snapshot"])
    for (seat, text), events in zip(stored["actions"], stored["events"], strict=True):
        assert [e.to_dict() for e in state.apply(seat, Action.parse(text))] == events
    legal = {str(seat): sorted(str(a) for a in state.legal_actions(seat)) for seat in range(state.n)}
    assert legal == stored["legal"]
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()


def test_format_2_spells_every_field_out() -> None:
    data = new_game(Rules.for_variant("circle", 3), seed="names").to_json()
    assert data["format"] == 2
    spelled = {"attack_cards", "covers", "throwers", "defender_start", "attack_limit", "round_order"}
    assert spelled <= set(data)
    assert not {"att", "cov", "thr", "tranks", "dstart", "cap"} & set(data)


def test_a_finished_game_keeps_its_result_under_the_stored_key() -> None:
    """The state's ``game_result`` was named ``outcome`` when format 2 was written: snapshots
    keep that key, so stored ones load and a process on the older code reads new ones."""
    state = new_game(Rules(), seed="kept")
    while not state.is_over:
        seat = state.actors()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    result = state.result()
    assert result is not None
    data = state.to_json()
    assert "outcome" in data and "game_result" not in data
    assert data["outcome"] == result.to_dict()
    assert GameState.from_json(json.loads(json.dumps(data))).result() == result
