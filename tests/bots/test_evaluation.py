"""The static evaluation at the stock's end (issue #38 §2): where the strong search's two-player
playouts stop, and whether its values come true on playouts finished by the engine."""

from __future__ import annotations

import random

from games.bots.evaluation import stock_out_values
from games.bots.heuristic import heuristic_move
from games.bots.ismcts import engine_playout, playout, rewards
from games.engine import Rules, new_game
from games.engine.phases import LEAD, OVER


def test_a_two_player_playout_stops_at_the_first_lead_after_the_stock_ran_out() -> None:
    """Through the engine, which leaves the state where it stopped; the search's bitmask loop
    gives the same values (``test_bitplayout.py``)."""
    for i in range(20):
        s = new_game(Rules.for_variant("perevodnoy" if i % 2 else "podkidnoy"), seed=f"cut{i}")
        assert playout(s.clone(), random.Random(i), evaluate=True) == engine_playout(
            s, random.Random(i), evaluate=True
        )
        values = stock_out_values(s)
        assert s.phase == LEAD and not s.stock
        assert 0 < values[0] < 1 and values[0] + values[1] == 1


def test_without_evaluation_or_with_more_players_the_playout_finishes_the_game() -> None:
    for rules in (Rules(), Rules(players=3), Rules(players=4, teams=True)):
        s = new_game(rules, seed="full")
        values = engine_playout(s, random.Random(0), evaluate=rules.players > 2)
        assert s.phase == OVER and values == rewards(s)


def test_the_evaluation_is_the_same_from_either_side() -> None:
    s = new_game(Rules(), seed="sym")
    engine_playout(s, random.Random(1), evaluate=True)
    swapped = s.clone()
    swapped.hands[0], swapped.hands[1] = s.hands[1], s.hands[0]
    swapped.attacker, swapped.defender = s.defender, s.attacker
    assert stock_out_values(swapped)[0] == stock_out_values(s)[1]


def test_the_evaluation_predicts_the_engines_results_better_than_a_coin() -> None:
    """Stop 300 seeded playouts where the search would, then let the engine finish them with the
    heuristic: the evaluation's mean squared error is well under a coin's 0.25, and it is not
    biased towards either seat."""
    errors = []
    bias = 0.0
    for i in range(300):
        s = new_game(Rules.for_variant("perevodnoy" if i % 2 else "podkidnoy"), seed=f"eval{i}")
        predicted = engine_playout(s, random.Random(i), evaluate=True)[0]
        while s.phase != OVER:
            seat = next(iter(s.awaiting()))
            s.apply_fast(seat, heuristic_move(s, seat, s.legal_fast(seat)))
        observed = rewards(s)[0]
        errors.append((predicted - observed) ** 2)
        bias += predicted - observed
    assert sum(errors) / len(errors) < 0.15
    assert abs(bias / len(errors)) < 0.06
