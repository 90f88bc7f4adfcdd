"""Determinizations agree with everything the seat sees, whatever the table."""

from __future__ import annotations

import random

import pytest

from games.bots.determinize import DeterminizeError, Determinizer, infer_rules
from games.bots.knowledge import read_knowledge
from games.engine import Rules

from .helpers import TABLES, random_walk


@pytest.mark.parametrize(("name", "rules"), TABLES, ids=[t[0] for t in TABLES])
def test_samples_match_the_seat_view(name: str, rules: Rules) -> None:
    rng = random.Random(name)
    for state, history in random_walk(rules, f"det-{name}")[::2]:
        for seat in state.actors():
            view = state.view(seat)
            guess = infer_rules(view)
            assert (guess.variant, guess.players, guess.deck, guess.jokers) == (
                rules.variant,
                rules.players,
                rules.deck,
                rules.jokers,
            )
            kn = read_knowledge(view, history, careful=True)
            sample = Determinizer(view, rules, kn).sample(rng)
            assert sample.view(seat).hand == view.hand
            assert sample.view(seat).hand_counts == view.hand_counts
            assert sample.view(seat).table == view.table
            assert sample.view(seat).stock_count == view.stock_count
            assert sorted(map(str, sample.legal_actions(seat))) == sorted(map(str, state.legal_actions(seat)))
            assert sample.awaiting().get(seat) == state.awaiting().get(seat)
            for other in range(rules.players):
                assert kn.known[other] & ~sample.hands[other] == 0
            every = sample.places_of_cards()
            assert sum(m.bit_count() for m in every.values()) == sum(
                m.bit_count() for m in state.places_of_cards().values()
            )


def test_wrong_rules_are_refused_clearly() -> None:
    state, history = random_walk(Rules(), "wrong")[5]
    view = state.view(0)
    with pytest.raises(DeterminizeError):
        Determinizer(view, Rules(deck=52), read_knowledge(view, history, careful=True))
