"""A server restart loses nothing: the stored snapshot can always be rebuilt from the move log
(rules, seed, dealer and the logged actions replayed through the engine)."""

from __future__ import annotations

import random

import pytest

from games.engine import Rules
from play import services
from tests.play.services_support import match_replayed_snapshot

from .services_support import make_user, player, start_match, state_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=3),
        Rules.for_variant("perevodnoy", players=4, throw_in="neighbours"),
        Rules.for_variant("circle", players=3, jokers=2),
    ],
    ids=["podkidnoy", "perevodnoy", "circle"],
)
def test_the_snapshot_rebuilt_from_the_log_equals_the_stored_one_after_every_change(
    monkeypatch: pytest.MonkeyPatch, rules: Rules
) -> None:
    """Moves by players, bots, timeouts and an autopilot all go into the one log."""
    monkeypatch.setattr("play.services.tables.new_seed", lambda: f"snapshot-{rules.variant}")
    humans = [make_user("a"), make_user("b")]
    match = start_match(humans=humans, rules=rules, bot_level="easy")
    rng = random.Random(7)
    step = 0
    while step < 400:
        step += 1
        state = state_of(match)
        if not match.is_active:
            break
        assert match_replayed_snapshot(match) == match.snapshot
        if step == 5:
            services.match_resign(match_id=match.pk, user=humans[1])
            continue
        if step % 7 == 0:
            services.match_timeout(match_id=match.pk, version=match.version)
            continue
        seat = rng.choice(sorted(state.awaiting()))
        seated = player(match, seat)
        if seated.user.is_bot or seated.autopilot:
            services.bot_turn(match_id=match.pk, version=match.version, seat=seat)
        else:
            action = rng.choice(state.legal_actions(seat))
            services.action_apply(
                match_id=match.pk,
                user=seated.user,
                action_text=str(action),
                expected_version=match.version,
            )
    match.refresh_from_db()
    assert not match.is_active
    assert match_replayed_snapshot(match) == match.snapshot
    assert match.moves.count() > 0
