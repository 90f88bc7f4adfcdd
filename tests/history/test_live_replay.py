"""Matches played through the live services replay, on their record page and from their JSON
export, to the state the live match stored (issue 5: "replay of stored matches equals their live
final state"; "export re-imports")."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import GameState, Rules
from games.records.export import match_import
from games.records.replay import replay_step, stored_moves
from history.selectors import match_for_record
from tests.games.services_support import make_user, play_out, start_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seed", "rules"),
    [
        ("live-1", Rules.for_variant("podkidnoy", players=2)),
        ("live-2", Rules.for_variant("perevodnoy", players=3)),
        ("live-3", Rules.for_variant("circle", players=2)),
        ("live-4", Rules.for_variant("podkidnoy", players=4, teams=True)),
    ],
)
def test_a_live_match_replays_to_its_stored_end(
    monkeypatch: pytest.MonkeyPatch, client: Client, seed: str, rules: Rules
) -> None:
    monkeypatch.setattr("games.live.services.tables.new_seed", lambda: seed)
    human = make_user(f"h-{seed}")
    match = play_out(start_match(humans=[human], rules=rules, bot_level="random"))
    record = match_for_record(match_id=match.pk)
    moves = stored_moves(record)
    last = replay_step(record, moves, len(moves))
    stored = GameState.from_json(match.snapshot)
    assert last.view.to_dict() == stored.full_view().to_dict()

    data = json.loads(client.get(reverse("match_export", args=[match.pk])).content)
    assert match_import(data).to_json() == match.snapshot
    assert data["result"] == match.result and data["seed"] == seed
