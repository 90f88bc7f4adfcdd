"""Random-playout conformance (the OpenSpiel ``random_sim_test`` idea) over every
variant x 2..6 players x deck x the main options: every game ends; every card is in
exactly one place at every step; no view shows a card its seat may not see; the record
replays to the identical final state; the state JSON round-trips.

CI plays a few thousand games in all, every check on every game.  ``pytest --soak``
(from the project root; ``pytest tests/engine --soak`` runs only the engine tests) plays
a million (about an hour per core; add ``-n 2`` with pytest-xdist): every game is
checked for termination and card accounting at every step, and every tenth game gets
the full treatment (notation, is_legal, views, replay, JSON).
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine import (
    Action,
    GameRecord,
    GameState,
    Rules,
    View,
    card_from_str,
    deck_cards,
    new_game,
)
from tests.engine.support import fast_str, places_of_cards


def _configs() -> list[Rules]:
    out: list[Rules] = []
    for variant in ("podkidnoy", "perevodnoy"):
        for deck in (24, 36, 52):
            for players in range(2, 7):
                if players * 6 > deck:
                    continue
                out.append(Rules.for_variant(variant, players, deck=deck))
        out.append(Rules.for_variant(variant, 3, throw_in="neighbours"))
        out.append(Rules.for_variant(variant, 5, throw_in="neighbours", draws=False))
        out.append(Rules.for_variant(variant, 4, teams=True))
        out.append(Rules.for_variant(variant, 4, teams=True, throw_in="neighbours", draws=False))
        out.append(Rules.for_variant(variant, 2, redeal=True, first_bout_limit_5=False))
        out.append(Rules.for_variant(variant, 6, redeal=True, deck=36))
    out.append(Rules.for_variant("perevodnoy", 3, transfer_by_trump_show=True))
    out.append(Rules.for_variant("perevodnoy", 2, transfer_by_trump_show=True, deck=24))
    for players in range(2, 7):
        out.append(Rules.for_variant("circle", players))
        out.append(Rules.for_variant("circle", players, jokers=2))
    out.append(
        Rules.for_variant(
            "circle", 3, jokers=2, joker_beats="colour", throw_in_after_joker=False, joker_last="pass_on"
        )
    )
    out.append(Rules.for_variant("circle", 2, jokers=2, joker_last="pass_on"))
    out.append(Rules.for_variant("circle", 4, teams=True, jokers=2, draws=False))
    out.append(Rules.for_variant("circle", 4, throw_in="neighbours", transfer_by_trump_show=True))
    return out


CONFIGS = _configs()


def config_id(r: Rules) -> str:
    bits = [r.variant, f"{r.players}p", str(r.deck)]
    for name, default in (
        ("teams", False),
        ("throw_in", "all"),
        ("draws", True),
        ("redeal", False),
        ("transfer_by_trump_show", False),
        ("jokers", 0),
        ("joker_beats", "any"),
        ("joker_last", "defence_only"),
        ("first_bout_limit_5", r.variant != "circle"),
    ):
        value = getattr(r, name)
        if value != default:
            bits.append(f"{name}={value}")
    return "-".join(bits)


CI_GAMES = 3000
SOAK_GAMES = 1_000_000


def _deck_mask(rules: Rules) -> int:
    m = 0
    for c in deck_cards(rules.deck, rules.jokers):
        m |= 1 << c
    return m


def _check_accounting(state: GameState, deck: int) -> None:
    seen = 0
    for mask in places_of_cards(state).values():
        assert not seen & mask, "a card is in two places"
        seen |= mask
    assert seen == deck, "a card is missing"


def _check_legal_in_view(state: GameState, view: View) -> None:
    """A view's legal list is the whole list, or (when long) its actions of one card at
    most; ``legal_cards`` are the hand's cards that some legal action uses."""
    assert view.viewer is not None
    fast = state.legal_fast(view.viewer)
    kept = fast if view.legal_complete else [f for f in fast if f[1].bit_count() <= 1]
    assert view.legal == [fast_str(f) for f in kept]
    used = 0
    for f in fast:
        used |= f[1]
    assert set(view.legal_cards) == {c for c in view.hand if used >> card_from_str(c) & 1}


def _check_views(state: GameState) -> None:
    for seat in range(state.n):
        v = state.view(seat)
        assert v.hands is None and v.stock is None and v.discard is None
        assert sorted(v.hand) == sorted(state.full_view().hands[seat])  # type: ignore[index]
        assert v.hand_counts == [h.bit_count() for h in state.hands]
        _check_legal_in_view(state, v)
    spec = state.spectator_view()
    assert spec.hand == [] and spec.hands is None and spec.stock is None
    json.dumps(spec.to_dict())


def play_checked(
    rules: Rules, seed: str, rng: random.Random, views: bool, thorough: bool = True
) -> GameState:
    """One random game through the public API with every check at every step
    (``thorough=False``: termination and card accounting only)."""
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
        if thorough:
            text = fast_str(fa)
            action = Action.parse(text)
            assert str(action) == text
            assert state.is_legal(seat, action)
            state.apply(seat, action)
            record.actions.append((seat, text))
        else:
            state.apply_fast(seat, fa)
        _check_accounting(state, deck)
        if views:
            _check_views(state)
    assert state.result() is not None
    assert state.actions_played <= rules.max_actions
    if not thorough:
        return state
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
        thorough = not soak or i % 10 == 0
        views = i % 20 == 0 if not soak else i % 200 == 0
        play_checked(rules, f"conf-{config_id(rules)}-{i}", rng, views, thorough)


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


def test_the_move_cap_ends_every_game_as_a_draw_among_the_holders() -> None:
    """``rules.max_actions`` is the termination guarantee: at the cap the game ends as a
    draw among the players still holding cards (reason ``move_cap``)."""
    rules = Rules(players=4, max_actions=100)
    rng = random.Random(9)
    capped = 0
    for i in range(20):
        state = play_checked(rules, f"cap-{i}", rng, views=False)
        result = state.result()
        assert result is not None and state.actions_played <= 100
        if result.reason == "move_cap":
            capped += 1
            assert result.draw and result.fool is None
            assert set(result.drawn_seats) == {s for s in range(4) if state.hands[s]}
    assert capped
