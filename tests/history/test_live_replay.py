"""Matches played through the live services replay, on their record page and from their JSON
export, to the state the live match stored (issue 5: "replay of stored matches equals their live
final state"; "export re-imports")."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import GameState, Rules
from history.match_export import match_import
from history.replay import replay_step, stored_moves
from history.selectors import match_for_record
from tests.play.services_support import make_user, play_out, start_match

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
    monkeypatch.setattr("play.services.tables.new_seed", lambda: seed)
    human = make_user(f"h-{seed}")
    match = play_out(start_match(humans=[human], rules=rules, bot_level="random"))
    record = match_for_record(match_id=match.pk)
    moves = stored_moves(record)
    last = replay_step(record, moves, len(moves))
    stored = GameState.from_json(match.snapshot)
    assert last.full_view.to_dict() == stored.full_view().to_dict()

    data = json.loads(client.get(reverse("match_export", args=[match.pk])).content)
    assert match_import(data).to_json() == match.snapshot
    assert data["result"] == match.result and data["seed"] == seed


def test_every_replay_step_offers_its_whole_position_and_a_link_to_it(
    monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    """A player copies the position of any step into a bug report: read back, it is that step's
    game (every hand and the stock's order), and the step's own link opens it again."""
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "copy-1")
    match = play_out(
        start_match(
            humans=[make_user("h-copy")], rules=Rules.for_variant("perevodnoy", players=3), bot_level="random"
        )
    )
    record = match_for_record(match_id=match.pk)
    moves = stored_moves(record)
    url = reverse("match_record", args=[match.pk])
    for number in sorted({0, 1, len(moves) // 2, len(moves)}):
        page = client.get(url, {"step": number}).content.decode()
        (text,) = re.findall(
            r'<input class="replay__position-text" id="replay-position"[^>]* value="([^"]*)"', page
        )
        position = html.unescape(text)
        step = replay_step(record, moves, number)
        assert GameState.from_position(position).full_view().to_dict() == step.full_view.to_dict()
        assert f'href="{url}?step={number}"' in page
        fragment = client.get(url, {"step": number}, headers={"HX-Request": "true"}).content.decode()
        assert html.escape(position, quote=True) in fragment  # the step the replay's buttons swap in
