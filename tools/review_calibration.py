"""Can players trust a review? Predicted chances of not being the fool against what happened.

``python -m tools.review_calibration --games 200 --a medium --b medium --iterations 300 --seed 1
[--workers 2] [--json]``

Bot games (the bots asked as :func:`tools.bot_matches.decide` asks them, with iteration budgets
in place of clocks so that a seed replays the same game on a busy machine) are played to the end
and recorded; then every decision of every seat is assessed as a review would
(:func:`games.bots.assess.assess_record_step`, the seat's information only), and the
probability it gives the move made is set against whether that seat ended up not the fool (1),
the fool (0) or in a draw (0.5). :func:`reliability` groups the pairs by decile of the
prediction: in a calibrated review each decile's observed rate is close to its mean prediction.
The summary figure is the expected calibration error (``ece``): the decile gaps weighted by
their share of the decisions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from games.bots import choose_action
from games.bots.assess import assess_record_step, record_decisions
from games.bots.budget import Budget
from games.bots.ismcts import choose_strong, rewards
from games.bots.medium import MEDIUM_BUDGET, choose_medium
from games.engine import Action, Event, GameRecord, Rules, new_game

#: The strong bot's iterations here (its CPU budget at the table stops it near this on an idle
#: core).
STRONG_ITERATIONS = 1500
#: Budgets on iterations alone (clocks that never bind), so a seed replays a game.
NO_CLOCK = 1e9
STRONG_WORK = Budget(STRONG_ITERATIONS, cpu_s=NO_CLOCK, wall_s=NO_CLOCK)
MEDIUM_WORK = Budget(MEDIUM_BUDGET.iterations, cpu_s=NO_CLOCK, wall_s=NO_CLOCK)


@dataclass(frozen=True, slots=True)
class Decile:
    """Predictions in ``[low, low + 0.1)``: how many, their mean, and the observed rate."""

    low: float
    count: int
    predicted: float
    observed: float


def decide(
    level: str, seat_view: Any, legal: Sequence[Action], seed: str, rules: Rules, history: list[Event]
) -> Action:
    """The bots of bot matches (:func:`tools.bot_matches.decide`) on iteration budgets instead of clocks."""
    if level == "medium":
        return choose_medium(seat_view, legal, seed, rules=rules, history=history, budget=MEDIUM_WORK)
    if level == "strong":
        return choose_strong(seat_view, legal, seed, rules=rules, history=history, budget=STRONG_WORK)
    return choose_action(level, seat_view, legal, seed)


def play_recorded(rules: Rules, seed: str, levels: Sequence[str]) -> tuple[GameRecord, list[float]]:
    """One bot game with ``levels[seat]`` at each seat: its record and each seat's outcome."""
    history: list[Event] = []
    record = GameRecord(rules, seed, 0)
    state = new_game(rules, seed=seed, dealer=0, events=history)
    while not state.is_over:
        seat = next(iter(state.awaiting()))
        legal = state.legal_actions(seat)
        action = decide(
            levels[seat], state.view(seat), legal, f"{seed}:{len(record.actions)}", rules, history
        )
        history.extend(state.apply(seat, action))
        record.actions.append((seat, str(action)))
    return record, rewards(state)


def game_pairs(args: tuple[Rules, str, tuple[str, ...], int]) -> list[tuple[float, float]]:
    """``(predicted, observed)`` for every decision of every seat of one game."""
    rules, seed, levels, iterations = args
    record, results = play_recorded(rules, seed, levels)
    pairs = []
    for seat in range(rules.players):
        for index in record_decisions(record, seat):
            verdict = assess_record_step(
                record, index, f"cal:{seed}:{index}", iterations=iterations, time_ms=60_000
            )
            pairs.append((verdict.p_played, results[seat]))
    return pairs


def collect(
    rules: Rules, games: int, levels: Sequence[str], iterations: int, seed: str | int, workers: int = 1
) -> list[tuple[float, float]]:
    jobs = [(rules, f"calibration:{seed}:{i}", tuple(levels), iterations) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            chunks = list(pool.map(game_pairs, jobs))
    else:
        chunks = [game_pairs(job) for job in jobs]
    return [pair for chunk in chunks for pair in chunk]


def reliability(pairs: Sequence[tuple[float, float]]) -> list[Decile]:
    """The pairs by decile of the prediction (a prediction of 1.0 joins the top decile).

    >>> [(d.low, d.count, d.predicted, d.observed) for d in reliability([(0.05, 0), (0.15, 1), (0.12, 0)])]
    [(0.0, 1, 0.05, 0.0), (0.1, 2, 0.135, 0.5)]
    """
    bins: dict[int, list[tuple[float, float]]] = {}
    for p, o in pairs:
        bins.setdefault(min(int(p * 10), 9), []).append((p, o))
    return [
        Decile(
            low=b / 10,
            count=len(items),
            predicted=round(statistics.fmean(p for p, _ in items), 4),
            observed=round(statistics.fmean(o for _, o in items), 4),
        )
        for b, items in sorted(bins.items())
    ]


def ece(deciles: Sequence[Decile]) -> float:
    """The expected calibration error: ``sum(count * |predicted - observed|) / total``.

    >>> ece([Decile(0.0, 1, 0.05, 0.0), Decile(0.1, 3, 0.15, 0.25)])
    0.0875
    """
    total = sum(d.count for d in deciles)
    return round(sum(d.count * abs(d.predicted - d.observed) for d in deciles) / total, 4) if total else 0.0


def table(deciles: Sequence[Decile]) -> str:
    """The reliability table in Markdown (docs/review.md's)."""
    lines = ["| predicted | decisions | mean predicted | observed not the fool |", "|---|---:|---:|---:|"]
    for d in deciles:
        lines.append(f"| {d.low:.1f}–{d.low + 0.1:.1f} | {d.count} | {d.predicted:.3f} | {d.observed:.3f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--a", default="easy", help="bot level at seat 0")
    parser.add_argument("--b", default="easy", help="bot level at seat 1")
    parser.add_argument("--iterations", type=int, default=300, help="the review's search per decision")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args(argv)
    rules = Rules.for_variant("podkidnoy", players=2)
    deciles = reliability(collect(rules, ns.games, (ns.a, ns.b), ns.iterations, ns.seed, ns.workers))
    report: dict[str, Any] = {"ece": ece(deciles), "deciles": [vars_of(d) for d in deciles]}
    if ns.json:
        print(json.dumps(report))
    else:
        print(f"{ns.a} vs {ns.b}, {ns.games} games, {ns.iterations} iterations: ECE {report['ece']:.3f}")
        print(table(deciles))
    return 0


def vars_of(d: Decile) -> dict[str, Any]:
    return {"low": d.low, "count": d.count, "predicted": d.predicted, "observed": d.observed}


if __name__ == "__main__":
    sys.exit(main())
