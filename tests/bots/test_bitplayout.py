"""The search's bitmask playout (:mod:`games.bots.bitplayout`) against the engine as the referee.

Thousands of seeded two-player positions, from random games and from the determinisations a
search deals, are played out both ways with the same generator: the bitmask loop and the
engine's playout (:func:`games.bots.ismcts.engine_playout`) must give every seat the same value
and draw the same random numbers (with every move random, a legal list out of the engine's
order would send the games apart). At every step of other random games the loop's legal lists
(built for its random moves) must be the engine's.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bots import bitplayout
from games.bots.ismcts import engine_playout, playout
from games.engine import Action, Event, Rules, new_game
from games.engine.bout.limits import limit_for
from games.engine.infostate import InfoState
from games.engine.phases import LEAD
from games.engine.state import GameState

#: The two-player tables the loop knows, with the options that change its rules.
TABLES: list[tuple[str, dict[str, Any]]] = [
    (variant, extra)
    for variant in ("podkidnoy", "perevodnoy")
    for extra in ({}, {"deck": 24}, {"deck": 52}, {"draws": False}, {"first_bout_limit_5": False})
]
NOISES = (0.0, 0.08, 0.5, 1.0)


def _played_into(
    rules: Rules, seed: str, rng: random.Random, history: list[Event] | None = None
) -> GameState:
    """A game after a random number of random actions by random actors (optional throw-ins and
    passes included)."""
    s = new_game(rules, seed=seed, events=history)
    for _ in range(rng.randrange(0, 70)):
        if s.is_over:
            break
        seat = rng.choice(s.actors())
        action = Action.from_fast(rng.choice(s.legal_fast(seat)))
        events = s.apply(seat, action)
        if history is not None:
            history.extend(events)
    return s


def _same_both_ways(s: GameState, seed: float, noise: float, evaluate: bool) -> None:
    bits, engine = random.Random(seed), random.Random(seed)
    before = s.to_json()
    values = bitplayout.play(s, bits, noise, evaluate)
    assert s.to_json() == before  # the loop leaves the state alone
    assert values == engine_playout(s.clone(), engine, noise, evaluate=evaluate), s.position()
    assert bits.getstate() == engine.getstate(), s.position()


@pytest.mark.parametrize(("variant", "extra"), TABLES)
def test_the_loop_and_the_engine_play_out_the_same_games(variant: str, extra: dict[str, Any]) -> None:
    rules = Rules.for_variant(variant, 2, **extra)
    rng = random.Random(f"bits-{variant}-{extra}")
    played = 0
    for i in range(60):
        s = _played_into(rules, f"bits-{i}", rng)
        if s.is_over:
            continue
        assert bitplayout.covers(s)
        for noise in NOISES:
            for evaluate in (False, True):
                _same_both_ways(s, rng.random(), noise, evaluate)
                played += 1
    assert played > 400


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy"])
def test_the_searchs_determinisations_play_out_the_same(variant: str) -> None:
    """The states a search plays out: dealt by :class:`InfoState` from a seat's view."""
    rules = Rules.for_variant(variant, 2)
    rng = random.Random(f"dets-{variant}")
    played = 0
    for i in range(120):
        history: list[Event] = []
        s = _played_into(rules, f"dets-{i}", rng, history)
        if s.is_over:
            continue
        seat = s.first_awaited()
        info = InfoState(s.view(seat), rules, history, remember_discard=True)
        for _ in range(4):
            sample = info.sample(rng)
            assert bitplayout.covers(sample)
            _same_both_ways(sample, rng.random(), rng.choice(NOISES), rng.random() < 0.5)
            played += 1
    assert played > 300


def _legal_of_the_loop(s: GameState, seat: int) -> list[tuple[int, int, int]]:
    """The legal list the loop builds for ``seat`` in ``s``, from the same facts it keeps."""
    hand = s.hands[seat]
    if s.phase == LEAD:
        return bitplayout.leads(hand, s.attack_limit)
    if seat == s.defender:
        uncovered = 0
        for a, c in zip(s.attack_cards, s.covers, strict=True):
            if c < 0:
                uncovered |= 1 << a
        attacker = s.hands[s.attacker]
        room = 0
        if s.rules.variant == "perevodnoy" and max(s.covers) < 0 and attacker:
            room = limit_for(s.rules, attacker.bit_count(), s.bito_done) - len(s.attack_cards)
        return bitplayout.defence(hand, s.attack_cards, uncovered, s.beaters, room)
    return bitplayout.throw_ins(hand & s.table_ranks)


@pytest.mark.parametrize(("variant", "extra"), TABLES)
def test_the_loops_legal_lists_are_the_engines(variant: str, extra: dict[str, Any]) -> None:
    rules = Rules.for_variant(variant, 2, **extra)
    rng = random.Random(f"legal-{variant}-{extra}")
    steps = 0
    for i in range(40):
        s = new_game(rules, seed=f"legal-{i}")
        while not s.is_over:
            seat = s.first_awaited()
            legal = s.legal_fast(seat)
            assert _legal_of_the_loop(s, seat) == legal, s.position()
            s.apply_fast(seat, rng.choice(legal))
            steps += 1
    assert steps > 1000


@pytest.mark.parametrize(
    "rules",
    [
        Rules.for_variant("podkidnoy", 3),
        Rules.for_variant("perevodnoy", 4, teams=True),
        Rules.for_variant("circle", 2),
        Rules.for_variant("perevodnoy", 2, transfer_by_trump_show=True),
        Rules.for_variant("podkidnoy", 2, throw_in_waits="holders"),
    ],
    ids=["three", "teams", "circle", "trump-show", "holders"],
)
def test_other_games_play_out_through_the_engine(rules: Rules) -> None:
    s = new_game(rules, seed="other")
    assert not bitplayout.covers(s)
    values = playout(s, random.Random(1), evaluate=True)
    assert len(values) == rules.players and all(0.0 <= v <= 1.0 for v in values)


def test_a_redeal_still_open_plays_through_the_engine() -> None:
    s = new_game(Rules.for_variant("podkidnoy", 2, redeal=True), seed="redeal")
    assert not bitplayout.covers(s)
    s.apply_fast(s.attacker, bitplayout.leads(s.hands[s.attacker], s.attack_limit)[0])
    assert bitplayout.covers(s)
