"""The strength harness: two bot levels play mirrored deals and the score gets a confidence interval.

``python -m tools.bot_matches --a strong --b easy --games 2000 --variant podkidnoy --players 2
--seed 1 [--json]``

Every deal is played twice with the seats swapped (seat ``i`` plays ``a`` when ``i + k`` is even
in the ``k``-th game of the pair), so luck of the deal cancels out. A game scores 1 for ``a``
when the fool (or the losing team) sits on ``b``'s seats, 0 the other way round, 0.5 for a draw;
``a_score`` is the mean, with a 95% interval from the spread of the pair means (the two games of
a deal are not independent). Each level's non-fool rate is reported per seat it held. The Elo
difference is the logistic reading of ``a_score``. Decision times are the thread's CPU time per
call (the searches' budgets are counted in it too, so a shared machine measures the same).

``--b-base PATH`` takes the ``b`` side's bots from the checkout at ``PATH`` (its ``games/bots``
loaded beside this tree's, on this tree's engine), so a level plays its own earlier version at
the same CPU per decision: ``--a strong --b strong --b-base /tmp/head --strong-ms 150``
(``tools.bench_strength`` does this for bases of b6436c4's time-counted interface).

Bots are asked the way the site asks them: with the seat's view, its legal actions, a seed, and
for the levels that use them the table's rules and the public event history. When several seats
may act, the first seat the game waits for acts (the defender before optional throw-ins).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from games.bots import choose_action
from games.bots.ismcts import STRONG_BUDGET, choose_strong
from games.bots.medium import choose_medium
from games.engine import Action, Event, Result, Rules, new_game


def bots_at(base: str) -> ModuleType:
    """The ``games/bots`` package of the checkout at ``base``, loaded once per process under its
    own name (its absolute imports reach this tree's engine)."""
    name = "arena_base_bots_" + hashlib.sha1(base.encode()).hexdigest()[:8]
    if name not in sys.modules:
        root = Path(base) / "games" / "bots"
        spec = importlib.util.spec_from_file_location(
            name, root / "__init__.py", submodule_search_locations=[str(root)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def decide(
    level: str,
    seat_view: Any,
    legal: Sequence[Action],
    seed: str,
    rules: Rules,
    history: Sequence[Event],
    strong_ms: float | None = None,
    base: str | None = None,
) -> Action:
    """Ask the bot of ``level`` for a move (with rules and history for the levels that read them;
    ``strong_ms`` overrides the strong bot's CPU budget, in milliseconds; ``base``: the bots of
    that checkout, :func:`bots_at`)."""
    if base is not None:
        bots = bots_at(base)
        action: Action
        if level == "strong":
            budget = bots.ismcts.STRONG_BUDGET
            if strong_ms is not None:
                budget = replace(budget, cpu_s=strong_ms / 1000)
            action = bots.ismcts.choose_strong(
                seat_view, legal, seed, rules=rules, history=history, budget=budget
            )
        else:
            action = bots.choose_action(level, seat_view, legal, seed, rules=rules, history=history)
        return action
    if level == "medium":
        return choose_medium(seat_view, legal, seed, rules=rules, history=history)
    if level == "strong":
        budget = STRONG_BUDGET if strong_ms is None else replace(STRONG_BUDGET, cpu_s=strong_ms / 1000)
        return choose_strong(seat_view, legal, seed, rules=rules, history=history, budget=budget)
    return choose_action(level, seat_view, legal, seed)


@dataclass
class PlayedGame:
    """One game: ``a``'s score (1 win, 0.5 draw, 0 loss), which seats were ``a``'s, who lost,
    and each side's decision times in milliseconds."""

    score: float
    a_seats: list[int]
    losers: list[int]
    ms: dict[str, list[float]] = field(default_factory=dict)


def losers_of(result: Result) -> list[int]:
    """The seats that lost: the fool, or the losing team; none in a draw."""
    if result.losing_team is not None:
        return list(result.losing_team)
    return [] if result.fool is None else [result.fool]


def play_game(
    rules: Rules,
    seed: str,
    levels: list[str],
    a_seats: list[int],
    strong_ms: float | None = None,
    b_base: str | None = None,
) -> PlayedGame:
    """Play one game with ``levels[seat]`` at each seat (the ``b`` seats' from ``b_base``)."""
    history: list[Event] = []
    state = new_game(rules, seed=seed, events=history)
    ms: dict[str, list[float]] = {"a": [], "b": []}
    step = 0
    while not state.is_over:
        seat = next(iter(state.awaiting()))
        legal = state.legal_actions(seat)
        t0 = time.thread_time()
        base = None if seat in a_seats else b_base
        seat_view = state.view(seat)
        action = decide(levels[seat], seat_view, legal, f"{seed}:{step}", rules, history, strong_ms, base)
        ms["a" if seat in a_seats else "b"].append((time.thread_time() - t0) * 1000)
        history.extend(state.apply(seat, action))
        step += 1
    result = state.result()
    assert result is not None
    losers = losers_of(result)
    if not losers:
        score = 0.5
    else:
        score = 0.0 if any(s in a_seats for s in losers) else 1.0
    return PlayedGame(score, a_seats, losers, ms)


def play_pair(args: tuple[Rules, str, str, str, float | None, str | None]) -> list[PlayedGame]:
    """The two mirrored games of one deal."""
    rules, seed, a, b, strong_ms, b_base = args
    out = []
    for k in range(2):
        levels = [a if (i + k) % 2 == 0 else b for i in range(rules.players)]
        a_seats = [i for i in range(rules.players) if (i + k) % 2 == 0]
        out.append(play_game(rules, seed, levels, a_seats, strong_ms, b_base))
    return out


def summarise(a: str, b: str, players: int, pairs: list[list[PlayedGame]]) -> dict[str, Any]:
    """The report: ``a_score`` with its 95% interval, Elo, non-fool rates, decision times."""
    games = [g for pair in pairs for g in pair]
    pair_means = [sum(g.score for g in pair) / len(pair) for pair in pairs]
    mean = statistics.fmean(pair_means)
    half = 1.96 * statistics.stdev(pair_means) / math.sqrt(len(pairs)) if len(pairs) > 1 else 0.5
    clipped = min(max(mean, 1e-3), 1 - 1e-3)
    nonfool: dict[str, list[int]] = {"a": [], "b": []}
    for g in games:
        for seat in range(players):
            side = "a" if seat in g.a_seats else "b"
            nonfool[side].append(0 if seat in g.losers else 1)
    ms = {side: [t for g in games for t in g.ms[side]] for side in ("a", "b")}

    def rate(xs: list[int]) -> tuple[float, float]:
        p = statistics.fmean(xs)
        return p, 1.96 * math.sqrt(p * (1 - p) / len(xs))

    a_rate, a_half = rate(nonfool["a"])
    b_rate, b_half = rate(nonfool["b"])
    return {
        "a": a,
        "b": b,
        "games": len(games),
        "a_score": round(mean, 4),
        "ci_low": round(max(0.0, mean - half), 4),
        "ci_high": round(min(1.0, mean + half), 4),
        "elo_diff": round(400 * math.log10(clipped / (1 - clipped)), 1),
        "a_nonfool": round(a_rate, 4),
        "a_nonfool_ci": round(a_half, 4),
        "b_nonfool": round(b_rate, 4),
        "b_nonfool_ci": round(b_half, 4),
        "a_ms_median": round(statistics.median(ms["a"]), 2) if ms["a"] else 0.0,
        "a_ms_max": round(max(ms["a"]), 2) if ms["a"] else 0.0,
        "b_ms_median": round(statistics.median(ms["b"]), 2) if ms["b"] else 0.0,
        "b_ms_max": round(max(ms["b"]), 2) if ms["b"] else 0.0,
    }


def run(
    a: str,
    b: str,
    games: int,
    rules: Rules,
    seed: str | int,
    workers: int = 1,
    strong_ms: float | None = None,
    b_base: str | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (rounded up to whole mirrored pairs) and summarise them."""
    # The deals' seeds keep the tool's first name, so a seed plays the games it always did.
    jobs = [(rules, f"arena:{seed}:{i}", a, b, strong_ms, b_base) for i in range((games + 1) // 2)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            pairs = list(pool.map(play_pair, jobs))
    else:
        pairs = [play_pair(job) for job in jobs]
    return summarise(a, b, rules.players, pairs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--a", required=True, help="bot level in the a seats")
    parser.add_argument("--b", required=True, help="bot level in the b seats")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", default="podkidnoy", choices=("podkidnoy", "perevodnoy", "circle"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", action="store_true", help="2 vs 2 (4 players)")
    parser.add_argument("--jokers", type=int, default=0, help="circle only: 0 or 2")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=1, help="processes (the machine is shared)")
    parser.add_argument("--strong-ms", type=float, default=None, help="the strong bot's CPU cap (ms)")
    parser.add_argument("--b-base", default=None, help="a checkout whose bots play the b side")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    ns = parser.parse_args(argv)
    extra: dict[str, Any] = {"teams": ns.teams}
    if ns.jokers:
        extra["jokers"] = ns.jokers
    rules = Rules.for_variant(ns.variant, players=ns.players, **extra)
    report = run(ns.a, ns.b, ns.games, rules, ns.seed, ns.workers, ns.strong_ms, ns.b_base)
    if ns.json:
        keys = ("a", "b", "games", "a_score", "ci_low", "ci_high", "elo_diff", "a_ms_median", "a_ms_max")
        print(json.dumps({k: report[k] for k in keys}))
        return 0
    r = report
    if ns.b_base:
        r["b"] = f"{r['b']}@base"
    print(f"{r['a']} vs {r['b']}: {rules.variant}, {rules.players} players, {r['games']} games (mirrored)")
    print(
        f"  {r['a']} score {r['a_score']:.3f}  95% [{r['ci_low']:.3f}, {r['ci_high']:.3f}]  "
        f"Elo {r['elo_diff']:+.0f}"
    )
    for side in ("a", "b"):
        print(
            f"  {r[side]:>8} non-fool {r[side + '_nonfool']:.3f} ± {r[side + '_nonfool_ci']:.3f}  "
            f"ms median {r[side + '_ms_median']:.2f}  max {r[side + '_ms_max']:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
