"""Benchmark: random legal games per variant and player count.

``python -m games.engine.bench [--games N] [--json] [--variant V] [--players P]``

Prints games/s, actions/s, state clones/s and peak memory (tracemalloc, measured in a
separate short run so tracing does not slow the timed one).  ``games_per_s`` is wall
time; ``cpu_games_per_s`` is process CPU time, steadier on a shared machine.  Targets
(2-core machine, CPython): >= 2,000 two-player podkidnoy games/s, >= 600 six-player,
a clone in <= 5 us.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc
from typing import Any

from .playout import random_playout
from .rules import Rules
from .setup import new_game
from .state import GameState


def _play(rules: Rules, games: int, seed: str) -> tuple[int, float, float]:
    rng = random.Random(seed)
    actions = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for i in range(games):
        actions += random_playout(new_game(rules, seed=f"{seed}-{i}"), rng)
    return actions, time.perf_counter() - t0, time.process_time() - c0


def _midgame(rules: Rules) -> GameState:
    rng = random.Random(7)
    state = new_game(rules, seed="clone")
    for _ in range(12):
        if state.is_over:
            break
        seat = state.actors()[0]
        legal = state.legal_fast(seat)
        state.apply_fast(seat, legal[int(rng.random() * len(legal))])
    return state


def _clones_per_s(rules: Rules, n: int = 5000) -> float:
    """Best of five batches (as ``timeit`` does): the least disturbed measurement."""
    state = _midgame(rules)
    clone = state.clone
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            clone()
        best = min(best, time.perf_counter() - t0)
    return n / best


def _peak_mb(rules: Rules, games: int) -> float:
    tracemalloc.start()
    _play(rules, games, "mem")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def run(games: int, variants: list[str], players: list[int]) -> list[dict[str, Any]]:
    """One result row per variant and player count (circle plays a fifth of the games)."""
    results = []
    for variant in variants:
        for p in players:
            rules = Rules.for_variant(variant, p)
            n = max(1, games // 5) if variant == "circle" else games
            actions, wall, cpu = _play(rules, n, f"bench-{variant}-{p}")
            results.append(
                {
                    "variant": variant,
                    "players": p,
                    "games": n,
                    "games_per_s": round(n / wall, 1),
                    "cpu_games_per_s": round(n / cpu, 1) if cpu else None,
                    "actions_per_s": round(actions / wall, 1),
                    "clones_per_s": round(_clones_per_s(rules), 1),
                    "peak_mb": round(_peak_mb(rules, max(1, n // 20)), 2),
                }
            )
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000, help="games per configuration")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--variant", action="append", choices=["podkidnoy", "perevodnoy", "circle"])
    parser.add_argument("--players", type=int, action="append")
    args = parser.parse_args(argv)
    variants = args.variant or ["podkidnoy", "perevodnoy", "circle"]
    players = args.players or [2, 3, 4, 5, 6]
    results = run(args.games, variants, players)
    if args.json:
        print(json.dumps({"results": results}))
        return
    head = f"{'variant':<11}{'pl':>3}{'games':>7}{'games/s':>10}{'cpu g/s':>10}"
    print(head + f"{'actions/s':>12}{'clone us':>10}{'peak MB':>9}")
    for r in results:
        print(
            f"{r['variant']:<11}{r['players']:>3}{r['games']:>7}{r['games_per_s']:>10.0f}"
            f"{r['cpu_games_per_s'] or 0:>10.0f}{r['actions_per_s']:>12.0f}"
            f"{1e6 / r['clones_per_s']:>10.2f}{r['peak_mb']:>9.2f}"
        )


if __name__ == "__main__":
    main()
