"""The strength harness: two bot levels play mirrored deals and the score gets a confidence interval.

``python -m tools.bot_matches --a strong --b easy --games 2000 --variant podkidnoy --players 2
--seed 1 [--json]``

Every deal is played twice with the seats swapped (seat ``i`` plays ``a`` when ``i + k`` is even
in the ``k``-th game of the pair), so luck of the deal cancels out. A game scores 1 for ``a``
when the fool (or the losing team) sits on ``b``'s seats, 0 the other way round, 0.5 for a draw;
``a_score`` is the mean, with a 95% interval from the spread of the pair means (the two games of
a deal are not independent). Each level's non-fool rate is reported per seat it held. The Elo
difference is the logistic reading of ``a_score``. Decision times are the thread's CPU time per
call (the searches' budgets are counted in it too, so a shared machine measures the same); the
searched decisions' median CPU ms and iterations are reported apart (forced moves cost nothing).

``--b-base PATH`` takes the ``b`` side's bots from the checkout at ``PATH`` (its ``games/bots``
loaded beside this tree's, on this tree's engine), so a level plays its own earlier version at
the same CPU per decision: ``--a strong --b strong --b-base /tmp/head --strong-ms 150``
(``tools.bench_strength`` does this for bases of b6436c4's time-counted interface).
``--b-strong-ms`` gives the ``b`` side's strong bot its own cap (more search against less:
``--a strong --b strong --strong-ms 150 --b-strong-ms 600``).

The level ``oracle`` exists only here: the strong bot's search dealt the true cards at every
determinization (:mod:`tools.oracle`), a cheater that bounds what a fair bot could score; it gets
the strong bot's budget (``--strong-ms`` on the ``a`` side, ``--b-strong-ms`` on the ``b`` side).

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
from typing import Any, NamedTuple

from games.bots import decide as decide_level
from games.bots.budget import Budget
from games.bots.ismcts import STRONG_BUDGET, Decision, decide_strong
from games.engine import Action, Event, GameState, Result, Rules, new_game
from tools.oracle import decide_oracle


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


def strong_budget(base: Budget, strong_ms: float | None) -> Budget:
    """``base`` with a CPU cap of ``strong_ms`` milliseconds. A cap above ``base``'s raises its
    iterations, solver nodes and wall ceiling in proportion, so the CPU is what binds."""
    if strong_ms is None:
        return base
    scale = max(1.0, strong_ms / 1000 / base.cpu_s)
    return replace(
        base,
        cpu_s=strong_ms / 1000,
        iterations=int(base.iterations * scale),
        nodes=int(base.nodes * scale),
        wall_s=base.wall_s * scale,
    )


def decide(
    level: str,
    seat_view: Any,
    legal: Sequence[Action],
    seed: str,
    rules: Rules,
    history: Sequence[Event],
    strong_ms: float | None = None,
    base: str | None = None,
    truth: GameState | None = None,
) -> Decision:
    """Ask the bot of ``level`` for a move and what it cost (with rules and history for the levels
    that read them; ``strong_ms`` overrides the strong bot's and the oracle's CPU budget, in
    milliseconds; ``base``: the bots of that checkout, :func:`bots_at`; ``truth``: the game's
    state, which only the ``oracle`` reads)."""
    if level == "oracle":
        if truth is None:
            raise ValueError("the oracle plays from the true state")
        budget = strong_budget(STRONG_BUDGET, strong_ms)
        return decide_oracle(truth, seat_view, legal, seed, rules, history, budget)
    if base is not None:
        bots = bots_at(base)
        if level == "strong":
            budget = strong_budget(bots.ismcts.STRONG_BUDGET, strong_ms)
            if hasattr(bots.ismcts, "decide_strong"):
                decision: Decision = bots.ismcts.decide_strong(
                    seat_view, legal, seed, rules=rules, history=history, budget=budget
                )
                return decision
            return Decision(
                bots.ismcts.choose_strong(seat_view, legal, seed, rules=rules, history=history, budget=budget)
            )
        return Decision(bots.choose_action(level, seat_view, legal, seed, rules=rules, history=history))
    if level == "strong":
        budget = strong_budget(STRONG_BUDGET, strong_ms)
        return decide_strong(seat_view, legal, seed, rules=rules, history=history, budget=budget)
    return decide_level(level, seat_view, legal, seed, rules=rules, history=history)


@dataclass
class PlayedGame:
    """One game: ``a``'s score (1 win, 0.5 draw, 0 loss), which seats were ``a``'s, who lost,
    each side's decision times in milliseconds, and its searched decisions' (CPU ms,
    iterations)."""

    score: float
    a_seats: list[int]
    losers: list[int]
    ms: dict[str, list[float]] = field(default_factory=dict)
    searched: dict[str, list[tuple[float, int]]] = field(default_factory=dict)


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
    b_strong_ms: float | None = None,
) -> PlayedGame:
    """Play one game with ``levels[seat]`` at each seat (the ``b`` seats' from ``b_base``, capped
    at ``b_strong_ms`` when given, else at ``strong_ms`` like the ``a`` seats)."""
    history: list[Event] = []
    state = new_game(rules, seed=seed, events=history)
    ms: dict[str, list[float]] = {"a": [], "b": []}
    searched: dict[str, list[tuple[float, int]]] = {"a": [], "b": []}
    caps = {"a": strong_ms, "b": strong_ms if b_strong_ms is None else b_strong_ms}
    step = 0
    while not state.is_over:
        seat = next(iter(state.awaiting()))
        legal = state.legal_actions(seat)
        side = "a" if seat in a_seats else "b"
        base = None if side == "a" else b_base
        seat_view = state.view(seat)
        t0 = time.thread_time()
        decision = decide(
            levels[seat], seat_view, legal, f"{seed}:{step}", rules, history, caps[side], base, state
        )
        cpu_ms = (time.thread_time() - t0) * 1000
        ms[side].append(cpu_ms)
        if decision.iterations > 0:
            searched[side].append((cpu_ms, decision.iterations))
        history.extend(state.apply(seat, decision.action))
        step += 1
    result = state.result()
    assert result is not None
    losers = losers_of(result)
    if not losers:
        score = 0.5
    else:
        score = 0.0 if any(s in a_seats for s in losers) else 1.0
    return PlayedGame(score, a_seats, losers, ms, searched)


class Pair(NamedTuple):
    """One deal to play twice: the rules, the deal's seed, the two levels and their settings."""

    rules: Rules
    seed: str
    a: str
    b: str
    strong_ms: float | None = None
    b_base: str | None = None
    b_strong_ms: float | None = None


def play_pair(args: tuple[Any, ...]) -> list[PlayedGame]:
    """The two mirrored games of one deal (a :class:`Pair`, or a tuple of its fields)."""
    job = Pair(*args)
    out = []
    for k in range(2):
        levels = [job.a if (i + k) % 2 == 0 else job.b for i in range(job.rules.players)]
        a_seats = [i for i in range(job.rules.players) if (i + k) % 2 == 0]
        out.append(
            play_game(job.rules, job.seed, levels, a_seats, job.strong_ms, job.b_base, job.b_strong_ms)
        )
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
    searched = {side: [c for g in games for c in g.searched.get(side, [])] for side in ("a", "b")}

    def median(xs: list[float]) -> float:
        return round(statistics.median(xs), 2) if xs else 0.0

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
        "a_searched": len(searched["a"]),
        "a_searched_ms_median": median([t for t, _ in searched["a"]]),
        "a_iterations_median": median([float(n) for _, n in searched["a"]]),
        "b_searched": len(searched["b"]),
        "b_searched_ms_median": median([t for t, _ in searched["b"]]),
        "b_iterations_median": median([float(n) for _, n in searched["b"]]),
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
    b_strong_ms: float | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (rounded up to whole mirrored pairs) and summarise them."""
    # The deals' seeds keep the tool's first name, so a seed plays the games it always did.
    jobs = [
        Pair(rules, f"arena:{seed}:{i}", a, b, strong_ms, b_base, b_strong_ms)
        for i in range((games + 1) // 2)
    ]
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
    parser.add_argument(
        "--strong-ms", type=float, default=None, help="the strong bot's and the oracle's CPU cap (ms)"
    )
    parser.add_argument("--b-strong-ms", type=float, default=None, help="the b side's cap, if other")
    parser.add_argument("--b-base", default=None, help="a checkout whose bots play the b side")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    ns = parser.parse_args(argv)
    extra: dict[str, Any] = {"teams": ns.teams}
    if ns.jokers:
        extra["jokers"] = ns.jokers
    rules = Rules.for_variant(ns.variant, players=ns.players, **extra)
    report = run(ns.a, ns.b, ns.games, rules, ns.seed, ns.workers, ns.strong_ms, ns.b_base, ns.b_strong_ms)
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
            f"ms median {r[side + '_ms_median']:.2f}  max {r[side + '_ms_max']:.2f}  "
            f"searched {r[side + '_searched']}: ms median {r[side + '_searched_ms_median']:.1f}, "
            f"iterations median {r[side + '_iterations_median']:.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
