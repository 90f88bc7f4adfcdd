"""Golden playthroughs (OpenSpiel style): whole games stored as records with their
expected event logs, results and, like perft counts in chess, the number of legal
actions of every seat at every step (pinning move generation down).  A change in the
rules' behaviour shows up here as a diff of the move log.

Regenerate after a deliberate rules change (and review the diff):
``python -m tests.engine.test_golden --write``
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import GameRecord, Rules, new_game
from tests.engine.support import fast_str

GOLDEN = Path(__file__).parent / "golden"

GAMES: dict[str, Rules] = {
    "podkidnoy-2p": Rules(),
    "podkidnoy-4p-teams": Rules(players=4, teams=True),
    "podkidnoy-3p-neighbours-24": Rules(players=3, deck=24, throw_in="neighbours"),
    "perevodnoy-2p": Rules(variant="perevodnoy"),
    "perevodnoy-3p-show": Rules(variant="perevodnoy", players=3, transfer_by_trump_show=True),
    "circle-3p": Rules.for_variant("circle", 3),
    "circle-4p-jokers-pass-on": Rules.for_variant(
        "circle", 4, jokers=2, joker_last="pass_on", joker_beats="colour"
    ),
}


def _play(name: str, rules: Rules) -> dict[str, Any]:
    rng = random.Random(name)
    state = new_game(rules, seed=f"golden-{name}")
    record = GameRecord(rules, f"golden-{name}", state.dealer)
    while not state.is_over:
        seat = rng.choice(state.actors())
        fa = rng.choice(state.legal_fast(seat))
        record.actions.append((seat, fast_str(fa)))
        state.apply_fast(seat, fa)
    result = state.result()
    assert result is not None
    return {
        "record": record.to_json(),
        "legal_counts": _legal_counts(record),
        "events": [[e.to_dict() for e in step] for step in record.events()],
        "result": result.to_dict(),
    }


def _legal_counts(record: GameRecord) -> list[str]:
    """Per step, the legal-action count of each seat ("12 0 3"), one short line a step."""
    return [" ".join(str(len(st.legal_fast(seat))) for seat in range(st.n)) for st in record.states()]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game_replays_with_its_event_log(name: str) -> None:
    stored = json.loads((GOLDEN / f"{name}.json").read_text())
    record = GameRecord.from_json(stored["record"])
    assert record.rules == GAMES[name]
    log = [[e.to_dict() for e in step] for step in record.events()]
    assert log == stored["events"]
    result = record.replay().result()
    assert result is not None and result.to_dict() == stored["result"]
    assert _legal_counts(record) == stored["legal_counts"]


def write() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, rules in GAMES.items():
        data = _play(name, rules)
        (GOLDEN / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        print(name, len(data["record"]["actions"]), "actions")


if __name__ == "__main__" and "--write" in sys.argv:
    write()
