"""Benchmark: random legal games per variant and player count.

``python -m tools.bench_engine [--games N] [--json] [--variant V] [--players P]``

Prints games/s, actions/s, state clones/s and peak memory (tracemalloc, measured in a
separate short run so tracing does not slow the timed one).  ``games_per_s`` is wall
time; ``cpu_games_per_s`` is process CPU time, steadier on a shared machine.  Targets
(2-core machine, CPython): >= 2,000 two-player podkidnoy games/s, >= 600 six-player,
a clone in <= 5 us.

``python -m tools.bench_engine --base /tmp/base [--games 1500] [--rounds 7] [--rule public]`` times
the fast path alone (two-player podkidnoy and perevodnoy, random legal play through
``legal_fast`` and ``apply_fast``, what every bot playout runs) against the engine of another
commit, exported with ``git archive <commit> | tar -x -C /tmp/base``. Each round measures both
trees in fresh processes, this one and the base in turn, and the printed ratio is the median of
the rounds' ratios of actions per CPU second, so a drift in the shared machine's speed touches
both sides of a pair.
Where the base knows the bout's "who is waited for" rule, both play the earlier rule (only
holders of a fitting card are waited for), which every commit has, so both play the same games;
``--rule public`` plays today's rule instead (what the bots search under), against a base that
knows it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from games.engine import new_game
from games.engine.playout import random_playout
from games.engine.rules import Rules
from games.engine.state import GameState


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


def fast_path(games: int, rule: str = "holders") -> dict[str, float]:
    """Actions per CPU second of the ``games`` package first on ``sys.path`` (this tree or a base),
    under the waiting ``rule`` where that package knows one."""
    actions = 0
    cpu = 0.0
    for variant in ("podkidnoy", "perevodnoy"):
        rules = Rules.for_variant(variant, 2)
        if hasattr(rules, "throw_in_waits"):
            rules = dataclasses.replace(rules, throw_in_waits=rule)
        rng = random.Random(1)
        began = time.process_time()
        for i in range(games):
            actions += random_playout(new_game(rules, seed=f"fast-{i}"), rng)
        cpu += time.process_time() - began
    return {"actions": actions, "cpu_s": cpu, "actions_per_cpu_s": actions / cpu}


def _fast_path_in(root: Path, games: int, rule: str) -> dict[str, float]:
    """:func:`fast_path` in a fresh process with the tree at ``root`` first on the path."""
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(games), rule],
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


#: The measuring process: this file's :func:`fast_path` run on whichever ``games`` comes first.
_MEASURE = (
    "import json, runpy, sys; "
    f"m = runpy.run_path({str(Path(__file__).resolve())!r}); "
    "print(json.dumps(m['fast_path'](int(sys.argv[1]), sys.argv[2])))"
)


def compare(base: Path, games: int, rounds: int, rule: str) -> None:
    """Print this tree's fast path against the base's, round by round, and the median ratio."""
    here = Path(__file__).resolve().parents[1]
    ratios = []
    for r in range(rounds):
        now = _fast_path_in(here, games, rule)
        then = _fast_path_in(base, games, rule)
        if now["actions"] != then["actions"]:
            print(f"note: the trees played different games ({now['actions']} vs {then['actions']} actions)")
        ratios.append(now["actions_per_cpu_s"] / then["actions_per_cpu_s"])
        print(
            f"round {r + 1}: this tree {now['actions_per_cpu_s']:,.0f} actions per CPU s, "
            f"base {then['actions_per_cpu_s']:,.0f}: {ratios[-1]:.3f}x"
        )
    print(
        f"median ratio over {rounds} rounds: {statistics.median(ratios):.3f}x "
        f"(min {min(ratios):.3f}, max {max(ratios):.3f})"
    )


def main(argv: list[str] | None = None) -> None:
    # Imported here: the measuring process runs this file on a base that may not know the rule.
    from games.engine.rules import THROW_IN_WAITS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000, help="games per configuration")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--variant", action="append", choices=["podkidnoy", "perevodnoy", "circle"])
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--base", type=Path, help="another commit's tree: time the fast path against it")
    parser.add_argument("--rounds", type=int, default=7, help="with --base: paired measurements")
    parser.add_argument(
        "--rule", choices=THROW_IN_WAITS, default="holders", help="with --base: whom a bout waits for"
    )
    args = parser.parse_args(argv)
    if args.base is not None:
        compare(args.base, args.games, args.rounds, args.rule)
        return
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
