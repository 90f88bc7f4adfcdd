"""Hypothesis properties: the notation round-trips, the cover relation matches its
definition (docs/rules.md §3 "Cover", §5 jokers), and the attack limit is never exceeded
(§3 "Limit"); illegal actions leave the state unchanged."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Action, IllegalAction, Rules, beats, new_game
from games.engine.actions import KIND_NAMES, FastAction
from games.engine.cards import RED_JOKER, cards_of

cards = st.integers(min_value=0, max_value=51)
any_card = st.integers(min_value=0, max_value=53)
suits = st.integers(min_value=0, max_value=3)


def reference_beats(cover: int, attack: int, trump: int, joker_beats: str) -> bool:
    """docs/rules.md §3 "Cover" written out plainly: a higher card of the suit; any trump over a non-trump;
    a joker over anything (or its colour); nothing over a joker."""
    if attack >= RED_JOKER:
        return False
    if cover >= RED_JOKER:
        if joker_beats == "any":
            return True
        red = cover == RED_JOKER
        return (attack % 4 >= 2) == red
    cs, cr, as_, ar = cover % 4, cover // 4, attack % 4, attack // 4
    if cs == as_:
        return cr > ar
    return cs == trump


@given(any_card, any_card, suits, st.sampled_from(["any", "colour"]))
def test_cover_relation_matches_the_rule(cover: int, attack: int, trump: int, jb: str) -> None:
    assert beats(cover, attack, trump, jb) == reference_beats(cover, attack, trump, jb)


@given(cards, cards, suits)
def test_cover_is_antisymmetric(a: int, b: int, trump: int) -> None:
    assert not (beats(a, b, trump) and beats(b, a, trump))


@given(cards, suits)
def test_every_non_trump_falls_to_every_trump(a: int, trump: int) -> None:
    if a % 4 != trump:
        for t in range(trump, 52, 4):
            assert beats(t, a, trump)


@given(
    st.sampled_from(KIND_NAMES),
    st.lists(cards, min_size=1, max_size=4, unique=True),
    cards,
)
def test_action_notation_round_trips(kind: str, cs: list[int], target: int) -> None:
    if kind in ("take", "pass", "redeal"):
        action = Action(kind)
    elif kind in ("cover", "beat"):
        action = Action(kind, (cs[0],), target)
    elif kind == "show":
        action = Action(kind, (cs[0],))
    else:
        action = Action(kind, tuple(sorted(cs)))
    assert Action.parse(str(action)) == action


RULES = [
    Rules(),
    Rules(players=4),
    Rules(variant="perevodnoy", players=3),
    Rules(players=6),
    Rules(variant="perevodnoy", players=2, deck=24, first_bout_limit_5=False),
    Rules.for_variant("circle", 3, jokers=2),
    Rules(players=4, teams=True, throw_in="neighbours"),
]


def _random_fast(rng: random.Random) -> FastAction:
    kind = rng.randrange(8)
    mask = 0
    for _ in range(rng.randrange(1, 3)):
        mask |= 1 << rng.randrange(52)
    if kind in (4, 5, 6):
        return (kind, 0, -1)
    if kind in (1, 7):
        return (kind, 1 << rng.randrange(52), rng.randrange(52))
    return (kind, mask, -1)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(RULES), st.integers(min_value=0, max_value=10**6))
def test_limits_and_legality_hold_along_random_games(rules: Rules, n: int) -> None:
    rng = random.Random(n)
    state = new_game(rules, seed=f"prop{n}")
    while not state.is_over:
        if state.phase == 1:
            attacks = len(state.attack_cards)
            assert attacks <= 6
            assert attacks <= state.defender_start
            if rules.first_five and not state.bito_done:
                assert attacks <= 5
        seat = rng.choice(state.actors())
        legal = state.legal_fast(seat)
        for fa in rng.sample(legal, min(5, len(legal))):
            assert state.is_legal(seat, Action.from_fast(fa))
        probe = _random_fast(rng)
        if rng.random() < 0.2 and probe not in legal:
            before = state.to_json()
            action = Action.from_fast(probe)
            try:
                state.apply(seat, action)
            except IllegalAction as err:
                assert str(err) and err.code
                assert state.to_json() == before
            else:  # a several-card throw-in: legal, though not listed
                assert probe[0] == 0 and len(cards_of(probe[1])) > 1
                continue
        state.apply_fast(seat, rng.choice(legal))
