"""The strong search's cost: iterations per second of the thread's CPU time, from the opening.

``python -m tools.bench_search [--positions 12] [--iterations 400] [--base b6436c4] [--pairs 5]``

Each position is the first decision of a seeded two-player deal (podkidnoy and perevodnoy in
turn); the search (``games.bots.ismcts.Search``, as the strong bot makes it) iterates a fixed number
of times and the thread's CPU time is summed. ``--base`` names another commit (exported with
``git archive`` into a temporary directory) or a directory holding one: each pair then measures
this tree and the base, each in a fresh process on its own engine and bots, in alternating order
(the base first in every other pair, so a machine that slows down or warms up does not favour
one side), and prints both figures with their ratio; the last line gives the median ratio and its
range over the pairs. On a shared machine only the ratios mean anything. The openings are the
costliest decisions (the longest playouts), so the figure is a floor.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
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


def measure_in(root: Path, positions: int, iterations: int) -> dict[str, float]:
    """:func:`measure` in a fresh process on the tree at ``root`` (its ``games`` first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
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
        cwd=root,
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def exported(base: str, into: Path) -> Path:
    """The tree of ``base``: a directory as it is, else the commit exported under ``into``."""
    if Path(base).is_dir():
        return Path(base)
    archive = subprocess.run(["git", "archive", base], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def compare(base: Path, pairs: int, positions: int, iterations: int) -> list[float]:
    """The ratio (this tree over ``base``) of each pair of fresh-process measurements, printed as
    they come; the order alternates between pairs."""
    here = Path(__file__).resolve().parent.parent
    ratios = []
    for k in range(pairs):
        order = [("this tree", here), ("base", base)]
        if k % 2:
            order.reverse()
        got = {name: measure_in(root, positions, iterations) for name, root in order}
        ratio = got["this tree"]["per_cpu_s"] / got["base"]["per_cpu_s"]
        ratios.append(ratio)
        print(
            f"pair {k + 1}: this tree {got['this tree']['per_cpu_s']:,.0f}/s, "
            f"base {got['base']['per_cpu_s']:,.0f}/s, ratio {ratio:.2f}x"
        )
    return ratios


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=400, help="iterations per position")
    parser.add_argument("--base", default=None, help="a commit, or a directory holding one, to compare with")
    parser.add_argument("--pairs", type=int, default=5, help="alternating pairs of measurements")
    parser.add_argument("--measure", action="store_true", help="print this tree's figure as JSON (internal)")
    ns = parser.parse_args(argv)
    if ns.measure:
        print(json.dumps(measure(ns.positions, ns.iterations)))
        return 0
    if ns.base is None:
        now = measure(ns.positions, ns.iterations)
        print(
            f"this tree: {now['per_cpu_s']:,.0f} iterations per CPU second "
            f"({now['iterations']} in {now['cpu_s']:.2f} s)"
        )
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-base-") as tmp:
        base = exported(ns.base, Path(tmp))
        ratios = compare(base, ns.pairs, ns.positions, ns.iterations)
    print(
        f"ratio over {len(ratios)} pairs: median {statistics.median(ratios):.2f}x, "
        f"range {min(ratios):.2f}x to {max(ratios):.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
