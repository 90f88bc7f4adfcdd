"""Strength at equal cost: this tree's strong bot against another commit's, on the same CPU time.

``python -m tools.bench_strength --base /tmp/base [--games 40] [--cpu-ms 300] [--seed 1] [--workers 1]``

``--base`` is a checkout of the commit to compare with (``git worktree add /tmp/base <commit>``).
Its ``games/bots`` package is loaded beside this tree's (as ``base_bots``, on this tree's engine,
so the comparison is of the bots alone) and its clocks are swapped for the thread's CPU time, so
each side gets ``--cpu-ms`` of computation per decision however busy the machine is. Deals are
two-player, podkidnoy and perevodnoy in turn, each played twice with the seats swapped
(:mod:`tools.bot_matches`'s scoring). Printed: the new bot's score with its 95% interval, and each
side's median CPU milliseconds and search iterations per searched decision.

``--oracle`` puts :mod:`tools.oracle` in the new bot's place: the same search dealt the true cards,
so the score is what perfect information is worth against the base at the same CPU, a bound for
any fair bot that searches no better.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from games.bots.ismcts import STRONG_BUDGET, decide_strong
from games.engine import Action, Event, GameState, Rules, new_game
from games.engine.data import GameData
from tools.bot_matches import PlayedGame, losers_of, summarise
from tools.oracle import decide_oracle

#: A side: (seat_view, legal, seed, rules, history, the true state, which only the oracle reads)
#: -> (action, iterations, searched).
Side = Callable[[Any, Sequence[Action], str, Rules, list[Event], GameState], tuple[Action, int, bool]]

_base: ModuleType | None = None
#: The state's ``game_result`` as the bots of a commit before its rename read it.
_OLD_RESULT = "outcome"


def load_base(base: Path) -> ModuleType:
    """The ``games/bots`` package of the checkout at ``base``, as ``base_bots``, its search timed
    by the thread's CPU clock and its iterations counted."""
    global _base
    if _base is not None:
        return _base
    root = base / "games" / "bots"
    spec = importlib.util.spec_from_file_location(
        "base_bots", root / "__init__.py", submodule_search_locations=[str(root)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["base_bots"] = module
    spec.loader.exec_module(module)
    ismcts = sys.modules["base_bots.ismcts"]
    cpu_time = SimpleNamespace(perf_counter=time.thread_time)
    ismcts.time = cpu_time  # type: ignore[attr-defined]
    sys.modules["base_bots.endgame"].time = cpu_time  # type: ignore[attr-defined]

    class Counted(ismcts.Search):  # type: ignore[name-defined,misc]
        last: Any = None

        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            Counted.last = self

    ismcts.Search = Counted  # type: ignore[attr-defined]
    if not hasattr(GameData, _OLD_RESULT):
        # Bots from before the field's rename read a finished game's result by its old name.
        setattr(GameData, _OLD_RESULT, property(lambda s: s.game_result))
    _base = module
    return module


def new_side(cpu_ms: float, oracle: bool = False) -> Side:
    budget = replace(STRONG_BUDGET, cpu_s=cpu_ms / 1000, wall_s=1e9)

    def side(
        seat_view: Any,
        legal: Sequence[Action],
        seed: str,
        rules: Rules,
        history: list[Event],
        truth: GameState,
    ) -> tuple[Action, int, bool]:
        if oracle:
            d = decide_oracle(truth, seat_view, legal, seed, rules, history, budget)
        else:
            d = decide_strong(seat_view, legal, seed, rules=rules, history=history, budget=budget)
        return d.action, d.iterations, d.iterations > 0 or d.solved

    return side


def base_side(base: Path, cpu_ms: float) -> Side:
    bots = load_base(base)
    ismcts = sys.modules["base_bots.ismcts"]

    def side(
        seat_view: Any,
        legal: Sequence[Action],
        seed: str,
        rules: Rules,
        history: list[Event],
        truth: GameState,
    ) -> tuple[Action, int, bool]:
        ismcts.Search.last = None
        action = bots.ismcts.choose_strong(
            seat_view, legal, seed, rules=rules, history=history, time_ms=cpu_ms
        )
        search = ismcts.Search.last
        iterations = search.iterations if search is not None else 0
        return action, iterations, search is not None

    return side


def play_game(
    rules: Rules,
    seed: str,
    sides: dict[str, Side],
    a_seats: list[int],
    costs: dict[str, list[tuple[float, int]]],
) -> PlayedGame:
    history: list[Event] = []
    state = new_game(rules, seed=seed, events=history)
    ms: dict[str, list[float]] = {"a": [], "b": []}
    step = 0
    while not state.is_over:
        seat = next(iter(state.awaiting()))
        name = "a" if seat in a_seats else "b"
        t0 = time.thread_time()
        action, iterations, searched = sides[name](
            state.view(seat), state.legal_actions(seat), f"{seed}:{step}", rules, history, state
        )
        cpu_ms = (time.thread_time() - t0) * 1000
        ms[name].append(cpu_ms)
        if searched:
            costs[name].append((cpu_ms, iterations))
        history.extend(state.apply(seat, action))
        step += 1
    result = state.result()
    assert result is not None
    losers = losers_of(result)
    score = 0.5 if not losers else (0.0 if any(s in a_seats for s in losers) else 1.0)
    return PlayedGame(score, a_seats, losers, ms)


def play_pair(
    job: tuple[int, str, str, float, bool],
) -> tuple[list[PlayedGame], dict[str, list[tuple[float, int]]]]:
    """The two mirrored games of deal ``i`` (podkidnoy for even ``i``, perevodnoy for odd)."""
    i, seed, base, cpu_ms, oracle = job
    rules = Rules.for_variant("podkidnoy" if i % 2 == 0 else "perevodnoy", players=2)
    sides = {"a": new_side(cpu_ms, oracle), "b": base_side(Path(base), cpu_ms)}
    costs: dict[str, list[tuple[float, int]]] = {"a": [], "b": []}
    # The deals' seeds keep the tool's first name, so a seed plays the games it always did.
    games = [play_game(rules, f"bench-arena:{seed}:{i}", sides, [k], costs) for k in range(2)]
    return games, costs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--base", type=Path, required=True, help="a checkout of the commit to compare with")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument(
        "--cpu-ms", type=float, default=300.0, help="CPU milliseconds per decision, each side"
    )
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=1, help="processes (the machine is shared)")
    parser.add_argument("--oracle", action="store_true", help="the new side sees every card (tools.oracle)")
    ns = parser.parse_args(argv)
    jobs = [(i, ns.seed, str(ns.base), ns.cpu_ms, ns.oracle) for i in range((ns.games + 1) // 2)]
    if ns.workers > 1:
        with ProcessPoolExecutor(ns.workers) as pool:
            results = list(pool.map(play_pair, jobs))
    else:
        results = [play_pair(job) for job in jobs]
    new = "oracle" if ns.oracle else "new strong"
    report = summarise("new", "base", 2, [games for games, _ in results])
    costs = {side: [c for _, cost in results for c in cost[side]] for side in ("a", "b")}
    print(f"{new} vs {ns.base}'s strong: {report['games']} games, {ns.cpu_ms:.0f} CPU ms a decision each")
    print(
        f"  new score {report['a_score']:.3f}  95% [{report['ci_low']:.3f}, {report['ci_high']:.3f}]  "
        f"Elo {report['elo_diff']:+.0f}"
    )
    for side, label in (("a", "new"), ("b", "base")):
        cpu = [c for c, _ in costs[side]]
        its = [n for _, n in costs[side]]
        print(
            f"  {label:>4}: {len(cpu)} searched decisions, median CPU {statistics.median(cpu):.1f} ms, "
            f"median iterations {statistics.median(its):.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
