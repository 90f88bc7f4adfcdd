"""The exact two-player endgame search finds the winning line a greedy player misses."""

from __future__ import annotations

from games.bots.endgame import solve
from games.bots.heuristic import heuristic_move
from games.engine import Action, Deal, GameState, Rules, deck_cards, new_game
from games.engine.cards import card_str


def _endgame(hands: list[list[str]]) -> GameState:
    held = {c for h in hands for c in h}
    rest = [card_str(c) for c in deck_cards(36) if card_str(c) not in held]
    return new_game(
        Rules(),
        seed="eg",
        deal=Deal(
            hands=hands,
            trump=None,
            trump_suit="D",
            stock=[],
            discard=rest,
            bito_done=True,
            dealer=1,
            first_attacker=0,
        ),
    )


def test_the_solver_leads_the_card_nobody_can_beat_first() -> None:
    # Leading 6S loses (7S covers, then 8C cannot be beaten); leading AS first wins.
    state = _endgame([["AS", "6S"], ["7S", "8C"]])
    legal = state.legal_fast(0)
    assert str(Action.from_fast(heuristic_move(state, 0, legal))) == "attack 6S"
    solved = solve(state, 0, legal)
    assert solved is not None
    move, value = solved
    assert str(Action.from_fast(move)) == "attack AS" and value == 1.0


def test_a_lost_position_or_an_exhausted_budget_gives_no_answer() -> None:
    lost = _endgame([["6S", "7C"], ["AD", "KD"]])
    assert solve(lost, 0, lost.legal_fast(0)) is None
    big = _endgame([["6S", "7S", "8S", "9C", "10C", "JH"], ["6H", "7H", "8H", "9S", "10S", "JC"]])
    assert solve(big, 0, big.legal_fast(0), node_budget=3) is None
