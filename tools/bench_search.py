"""The strong search's cost: iterations per second of the thread's CPU time, from the opening.

``python -m tools.bench_search [--positions 12] [--iterations 400] [--base /tmp/base]``

Each position is the first decision of a seeded two-player deal (podkidnoy and perevodnoy in
turn); the search (``games.bots.ismcts.Search``, as the strong bot makes it) iterates a fixed number
of times and the thread's CPU time is summed. ``--base`` names a checkout of another commit (made
with ``git worktree add /tmp/base <commit>``): the same measurement runs there in a subprocess,
on that commit's engine and bots, and both figures print side by side with their ratio. The
openings are the costliest decisions (the longest playouts), so the figure is a floor.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def measure(positions: int, iterations: int) -> dict[str, float]:
    """Iterations per CPU second of the ``games`` package on ``sys.path`` (this tree or a base)."""
    from games.bots.ismcts import Search
    from games.engine import Event, Rules, new_game
    from games.engine.infostate import InfoState

    total_iterations = 0
    total_cpu = 0.0
    for i in range(positions):
        rules = Rules.for_variant("podkidnoy" if i % 2 == 0 else "perevodnoy", players=2)
        history: list[Event] = []
        state = new_game(rules, seed=f"bench:{i}", events=history)
        seat = next(iter(state.awaiting()))
        legal = [a.to_fast() for a in state.legal_actions(seat) if a.kind != "redeal"]
        info = InfoState(state.view(seat), rules, history, remember_discard=True)
        # As the bots make it (``Search.for_bot``) where the tree has that, else plainly.
        make = getattr(Search, "for_bot", Search)
        search = make(info, legal, random.Random(i))
        began = time.thread_time()
        for _ in range(iterations):
            search.iterate()
        total_cpu += time.thread_time() - began
        total_iterations += search.iterations
    return {
        "iterations": total_iterations,
        "cpu_s": round(total_cpu, 4),
        "per_cpu_s": total_iterations / total_cpu,
    }


def measure_base(base: Path, positions: int, iterations: int) -> dict[str, float]:
    """:func:`measure` run on the checkout at ``base`` (its ``games`` first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(base)}
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--measure",
            f"--positions={positions}",
            f"--iterations={iterations}",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=base,
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=400, help="iterations per position")
    parser.add_argument("--base", type=Path, default=None, help="a checkout of the commit to compare with")
    parser.add_argument("--measure", action="store_true", help="print this tree's figure as JSON (internal)")
    ns = parser.parse_args(argv)
    if ns.measure:
        print(json.dumps(measure(ns.positions, ns.iterations)))
        return 0
    now = measure(ns.positions, ns.iterations)
    print(
        f"this tree: {now['per_cpu_s']:,.0f} iterations per CPU second "
        f"({now['iterations']} in {now['cpu_s']:.2f} s)"
    )
    if ns.base is not None:
        base = measure_base(ns.base, ns.positions, ns.iterations)
        print(
            f"base {ns.base}: {base['per_cpu_s']:,.0f} iterations per CPU second "
            f"({base['iterations']} in {base['cpu_s']:.2f} s)"
        )
        print(f"ratio: {now['per_cpu_s'] / base['per_cpu_s']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
