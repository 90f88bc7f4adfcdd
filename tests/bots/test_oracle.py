"""The harness's oracle: the strong search dealt the true cards (no strength measured)."""

from __future__ import annotations

import random

import pytest

from games.bots import choose_action, ismcts
from games.bots.inference import ReadInfoState
from games.bots.ismcts import STRONG_BUDGET
from games.engine import Event, GameState, Rules, new_game
from tools.bot_matches import decide, play_game, strong_budget
from tools.oracle import TrueInfoState


def _midgame(rules: Rules, seed: str, steps: int) -> tuple[GameState, list[Event]]:
    """A game ``easy`` bots played ``steps`` actions into, the stock still there."""
    history: list[Event] = []
    state = new_game(rules, seed=seed, events=history)
    for step in range(steps):
        seat = next(iter(state.awaiting()))
        action = choose_action("easy", state.view(seat), state.legal_actions(seat), f"{seed}:{step}")
        history.extend(state.apply(seat, action))
    assert not state.is_over and state.stock
    return state, history


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy"])
def test_every_sample_is_the_true_deal(variant: str) -> None:
    rules = Rules.for_variant(variant, players=2)
    state, history = _midgame(rules, "oracle", 9)
    seat = next(iter(state.awaiting()))
    info = TrueInfoState(state, state.view(seat), rules, history)
    rng = random.Random(1)
    for _ in range(3):
        s = info.sample(rng)
        assert s.hands == state.hands and s.stock == state.stock and s.discard == state.discard
        assert s.legal_fast(seat) == state.legal_fast(seat)
        s.apply_fast(seat, s.legal_fast(seat)[0])  # the search plays on its copy...
    assert info.sample(rng).hands == state.hands  # ...never on the truth


def test_the_oracle_level_searches_the_true_state(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules()
    state, history = _midgame(rules, "oracle-level", 6)
    seat = next(iter(state.awaiting()))
    legal = state.legal_actions(seat)
    assert len(legal) > 1
    samples: list[GameState] = []
    true_sample = TrueInfoState.sample

    def spy(self: TrueInfoState, rng: random.Random) -> GameState:
        s = true_sample(self, rng)
        samples.append(s.clone())
        return s

    monkeypatch.setattr(TrueInfoState, "sample", spy)
    decision = decide("oracle", state.view(seat), legal, "s", rules, history, strong_ms=5, truth=state)
    assert decision.action in legal and decision.iterations == len(samples) > 0
    assert all(s.hands == state.hands and s.stock == state.stock for s in samples)
    assert vars(ismcts)["ReadInfoState"] is ReadInfoState  # the strong bot's own sampler is back
    with pytest.raises(ValueError, match="true state"):
        decide("oracle", state.view(seat), legal, "s", rules, history, strong_ms=5)


def test_each_side_gets_its_own_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    caps: dict[str, set[float | None]] = {"oracle": set(), "strong": set()}

    def recording(level: str, *args: object) -> object:
        caps[level].add(args[5])  # type: ignore[arg-type]
        return decide("easy", *args)  # type: ignore[arg-type]

    monkeypatch.setattr("tools.bot_matches.decide", recording)
    play_game(Rules(), "caps", ["oracle", "strong"], [0], strong_ms=150, b_strong_ms=600)
    assert caps == {"oracle": {150}, "strong": {600}}


def test_a_larger_cap_lets_the_cpu_bind() -> None:
    assert strong_budget(STRONG_BUDGET, 150) == STRONG_BUDGET.__class__(
        STRONG_BUDGET.iterations, 0.15, STRONG_BUDGET.wall_s, STRONG_BUDGET.nodes
    )
    big = strong_budget(STRONG_BUDGET, 600)
    assert big.cpu_s == 0.6 and big.iterations == 2 * STRONG_BUDGET.iterations
    assert big.nodes == 2 * STRONG_BUDGET.nodes and big.wall_s == 2 * STRONG_BUDGET.wall_s
