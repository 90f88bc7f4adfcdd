"""The searches' budgets are work and CPU time, not the wall clock (issue #38 §1): a busy machine
(its clocks faked here, never real load) must not starve a decision, and a late turn spends less
by the stated rule."""

from __future__ import annotations

import pytest

from games.bots import budget as budget_module
from games.bots import choose_action, endgame, ismcts, medium
from games.bots.budget import MIN_ITERATIONS, Budget, Meter
from games.bots.endgame import solve
from games.bots.heuristic import heuristic_move
from games.bots.ismcts import search_move
from games.engine import Action, Deal, Event, GameState, Rules, deck_cards, new_game
from games.engine.cards import card_str, cards_of


class Ticking:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _busy(monkeypatch: pytest.MonkeyPatch, cpu_step: float, wall_step: float) -> None:
    monkeypatch.setattr(budget_module, "cpu_clock", Ticking(cpu_step))
    monkeypatch.setattr(budget_module, "wall_clock", Ticking(wall_step))


def _opening() -> tuple[object, list[Action]]:
    state = new_game(Rules(), seed="budget")
    seat = next(iter(state.awaiting()))
    return state.view(seat), state.legal_actions(seat)


def test_a_search_on_a_busy_core_gets_the_iterations_an_idle_core_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, legal = _opening()
    idle = search_move(view, legal, "s", None, None, Budget(200), careful=True, endgame=True)
    # A core shared ten ways: every read of the wall clock shows 10x the CPU time of the thread.
    # A 300 ms wall-clock cap would have stopped this search after about 150 iterations.
    _busy(monkeypatch, cpu_step=0.0002, wall_step=0.002)
    busy = search_move(
        view, legal, "s", None, None, Budget(200, cpu_s=0.5, wall_s=1.0), careful=True, endgame=True
    )
    assert idle.iterations > 150
    assert (busy.action, busy.iterations) == (idle.action, idle.iterations)


def test_the_cpu_budget_ends_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    view, legal = _opening()
    _busy(monkeypatch, cpu_step=0.01, wall_step=0.0)
    decision = search_move(
        view, legal, "s", None, None, Budget(10_000, cpu_s=0.5, wall_s=60), careful=True, endgame=True
    )
    # The CPU clock is read once an iteration: 10 ms a read spends the 0.5 s in 50 iterations
    # (fewer when the iterations left could no longer change the move).
    assert 1 <= decision.iterations <= 50 and decision.cpu_s <= 0.5 + 0.02


def test_the_wall_ceiling_is_a_safety_net_for_a_starved_search(monkeypatch: pytest.MonkeyPatch) -> None:
    view, legal = _opening()
    _busy(monkeypatch, cpu_step=0.0, wall_step=0.1)
    decision = search_move(
        view, legal, "s", None, None, Budget(10_000, cpu_s=0.5, wall_s=1.0), careful=True, endgame=True
    )
    assert 1 <= decision.iterations <= 10
    assert decision.action in legal


def test_a_late_turn_spends_less_by_the_stated_rule() -> None:
    budget = Budget(4000, cpu_s=0.5, wall_s=1.0, nodes=60_000)
    assert budget.after(0.0) == budget
    assert budget.after(1.0) == Budget(2000, cpu_s=0.25, wall_s=0.5, nodes=30_000)
    assert budget.after(3.0) == Budget(1000, cpu_s=0.125, wall_s=0.25, nodes=15_000)
    assert budget.after(1000.0).iterations == 200  # MIN_SHARE
    assert Budget(20).after(1000.0).iterations == MIN_ITERATIONS


def _endgame(hands: list[list[str]]) -> GameState:
    held = {c for h in hands for c in h}
    rest = [card_str(c) for c in deck_cards(36) if card_str(c) not in held]
    deal = Deal(
        hands=hands, trump=None, trump_suit="D", stock=[], discard=rest, bito_done=True, first_attacker=0
    )
    return new_game(Rules(), seed="eg", deal=deal)


# Six cards each: the proof takes a few thousand nodes.
HANDS = [["AS", "6S", "8C", "9H", "QD", "7H"], ["7S", "10C", "JH", "6D", "KS", "8S"]]


def _forget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh table of proven positions, so every solve below does its own work."""
    monkeypatch.setattr(endgame, "_PROVEN", {})


def test_the_solver_counts_its_budget_in_nodes_not_in_wall_time(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _endgame(HANDS)
    legal = state.legal_fast(0)
    _forget(monkeypatch)
    counted = endgame.EndgameSolver(0, node_budget=10**9)
    free = counted.best_move(state, legal)
    assert free is not None and counted.nodes > 64 * 9
    # A loaded core: each check of the clocks (one every 64 nodes) sees 20 ms of wall time go by.
    # The old cap (60 % of 300 ms of wall time) would have given up after nine checks.
    _forget(monkeypatch)
    _busy(monkeypatch, cpu_step=0.00001, wall_step=0.02)
    meter = Meter(Budget(1, cpu_s=0.5, wall_s=60))
    assert solve(state, 0, legal, node_budget=10**9, meter=meter, cpu_share=0.6) == free
    _forget(monkeypatch)
    assert solve(state, 0, legal, node_budget=counted.nodes - 1) is None


def _played_endgame(seed: str) -> tuple[object, list[Action], list[Event]] | None:
    """A duel played by the heuristic up to a choice with the stock empty and at most ten cards
    in hand, with its public history (what lets the bot know every card)."""
    history: list[Event] = []
    state = new_game(Rules(), seed=seed, events=history)
    while not state.is_over:
        seat = next(iter(state.awaiting()))
        legal = state.legal_fast(seat)
        if not state.stock and sum(len(cards_of(h)) for h in state.hands) <= 10 and len(legal) > 1:
            return state.view(seat), state.legal_actions(seat), history
        history.extend(state.apply(seat, Action.from_fast(heuristic_move(state, seat, legal))))
    return None


def test_the_strong_search_gives_the_solver_its_budgets_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    proved = 0
    for seed in range(12):
        position = _played_endgame(f"eg{seed}")
        if position is None:
            continue
        view, legal, history = position
        _forget(monkeypatch)
        solved = search_move(view, legal, "s", Rules(), history, Budget(1), careful=True, endgame=True)
        if not solved.solved:
            continue  # every move loses: the search plays on for the opponent's mistakes
        proved += 1
        _forget(monkeypatch)
        unsolved = search_move(
            view, legal, "s", Rules(), history, Budget(1, nodes=0), careful=True, endgame=True
        )
        assert not unsolved.solved and unsolved.iterations == 1
    assert proved >= 3


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_the_site_entry_point_hands_a_late_turns_cut_budget_to_the_search(
    monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    spent: list[Budget] = []
    real = ismcts.search_move

    def spy(*args: object, **kwargs: object) -> ismcts.Decision:
        spent.append(args[5])  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ismcts, "search_move", spy)
    monkeypatch.setattr(medium, "search_move", spy)
    view, legal = _opening()
    choose_action(level, view, legal, "s", late=3.0)
    full = ismcts.STRONG_BUDGET if level == "strong" else medium.MEDIUM_BUDGET
    assert spent == [full.after(3.0)]
