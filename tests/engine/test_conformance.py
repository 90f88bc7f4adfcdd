"""Random-playout conformance (the OpenSpiel ``random_sim_test`` idea) over every
variant x 2..6 players x deck x the main options: every game ends; every card is in
exactly one place at every step; no view shows a card its seat may not see; the record
replays to the identical final state; the state JSON round-trips.

CI plays a few thousand games in all; ``pytest --soak`` plays a million.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine import Action, GameRecord, GameState, Rules, deck_cards, new_game
from games.engine.actions import fast_str

from .matrix import CONFIGS, config_id

CI_GAMES = 3000
SOAK_GAMES = 1_000_000


def _deck_mask(rules: Rules) -> int:
    m = 0
    for c in deck_cards(rules.deck, rules.jokers):
        m |= 1 << c
    return m


def _check_accounting(state: GameState, deck: int) -> None:
    seen = 0
    for mask in state.places_of_cards().values():
        assert not seen & mask, "a card is in two places"
        seen |= mask
    assert seen == deck, "a card is missing"


def _check_views(state: GameState) -> None:
    for seat in range(state.n):
        v = state.view(seat)
        assert v.hands is None and v.stock is None and v.discard is None
        assert sorted(v.hand) == sorted(state.full_view().hands[seat])  # type: ignore[index]
        assert v.hand_counts == [h.bit_count() for h in state.hands]
    spec = state.spectator_view()
    assert spec.hand == [] and spec.hands is None and spec.stock is None
    json.dumps(spec.to_dict())


def play_checked(rules: Rules, seed: str, rng: random.Random, views: bool) -> GameState:
    """One random game through the public API with every check at every step."""
    deck = _deck_mask(rules)
    state = new_game(rules, seed=seed)
    record = GameRecord(rules, seed, state.dealer)
    _check_accounting(state, deck)
    while not state.is_over:
        actors = state.actors()
        assert actors, "a live game with nobody to act"
        assert set(state.awaiting()) <= set(actors)
        seat = rng.choice(actors)
        legal = state.legal_fast(seat)
        assert legal, f"seat {seat} is an actor without a legal action"
        fa = rng.choice(legal)
        text = fast_str(fa)
        action = Action.parse(text)
        assert str(action) == text
        assert state.is_legal(seat, action)
        state.apply(seat, action)
        record.actions.append((seat, text))
        _check_accounting(state, deck)
        if views:
            _check_views(state)
    assert state.result() is not None
    assert len(record.actions) <= rules.max_actions
    replayed = GameRecord.from_json(json.loads(json.dumps(record.to_json()))).replay()
    assert replayed.to_json() == state.to_json()
    assert GameState.from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()
    return state


@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_random_games_conform(rules: Rules, soak: bool) -> None:
    games = (SOAK_GAMES if soak else CI_GAMES) // len(CONFIGS)
    if rules.variant == "circle":  # a circle game is ~10x longer: play fewer in CI
        games = games if soak else max(4, games // 4)
    rng = random.Random(config_id(rules))
    for i in range(games):
        play_checked(rules, f"conf-{config_id(rules)}-{i}", rng, views=i % 20 == 0)


@pytest.mark.parametrize("rules", CONFIGS[::7], ids=config_id)
def test_midgame_json_and_clone_play_on_identically(rules: Rules) -> None:
    """A state restored from JSON, and a clone, play on exactly like the original."""
    rng = random.Random(1)
    state = new_game(rules, seed="mid")
    for _ in range(25):
        if state.is_over:
            break
        seat = rng.choice(state.actors())
        state.apply_fast(seat, rng.choice(state.legal_fast(seat)))
    copies = [GameState.from_json(state.to_json()), state.clone()]
    while not state.is_over:
        seat = rng.choice(state.actors())
        fa = rng.choice(state.legal_fast(seat))
        for s in (state, *copies):
            s.apply_fast(seat, fa)
    for c in copies:
        assert c.to_json() == state.to_json()
