"""Is the review's chance true for the player it is shown to? Per-seat calibration, and its map.

The review's raw chance (:func:`games.bots.assess.assess`) is the search's estimate "if both of
you played on like its playouts": pooled over both seats of a game it looks calibrated, because
the stronger seat's pessimism and the weaker seat's optimism cancel. This tool measures it per
seat in uneven pairings, fits the map that makes the chance shown true for players of the seats'
ratings (:mod:`games.bots.chance`), and measures the map on games it was not fitted on::

    python -m tools.review_seat_calibration collect --a medium --b strong --games 50 \\
        --iterations 200 --seed fit --out /tmp/fit.jsonl
    python -m tools.review_seat_calibration fit /tmp/fit.jsonl
    python -m tools.review_seat_calibration report /tmp/held.jsonl [--a A --b B --c C]

``collect`` plays bot games as :mod:`tools.review_calibration` does (iteration budgets, so a
seed replays the same games on any machine), the levels swapping seats every game (so neither
level keeps the first move), reviews every decision of both seats at ``--iterations`` and
appends one JSON line per game: the levels by seat, the outcome of each seat (1 not the fool, 0
the fool, 0.5 a draw) and every decision's raw chance (and its best move's). A line is written
as its game ends, and games already in the file are skipped, so a run cut short goes on where it
stopped when run again.

``fit`` finds the map's three constants by maximum likelihood (the outcome as a soft label, a
draw a half) over every decision, with the bots' ratings (``ratings.starts.BOT_START_RATINGS``)
for the seats' ratings. ``report`` prints, per pairing and per seat, the mean chance shown
against the seat's observed rate and the expected calibration error (deciles, as
:func:`tools.review_calibration.ece`) of the raw chance and of the mapped one, each with a 95%
bootstrap range over games (the decisions of one game share its result, so the game is the
unit); without ``--a --b --c`` it maps with the product's constants.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.bots.assess import assess_record_step, label, record_decisions
from games.bots.chance import CHANCE_MAP, ChanceMap
from games.engine import Rules
from tools.review_calibration import ece, play_recorded, reliability

#: The bots' ratings (``ratings.starts.BOT_START_RATINGS``: that module reads Django's models,
#: which this tool has no need to set up; ``tests/bots/test_chance.py`` checks the two agree).
LEVEL_RATINGS = {"random": 905.0, "easy": 1500.0, "medium": 1610.0, "strong": 1755.0}
#: The report's name for both seats pooled (the pooled figure hides the per-seat bias).
BOTH = "both seats"
#: Bootstrap draws over games.
DRAWS = 1000


@dataclass(frozen=True, slots=True)
class Game:
    """One reviewed game: the level at each seat, each seat's outcome and its raw chances."""

    seed: str
    levels: tuple[str, ...]
    results: tuple[float, ...]
    chances: tuple[tuple[float, ...], ...]
    #: The search's best move's chance at each decision (the labels read the drop to the chance).
    best: tuple[tuple[float, ...], ...] = ()

    def rating_edge(self, seat: int) -> float:
        """The seat's rating minus the mean of the others' (the map's input)."""
        others = [LEVEL_RATINGS[lv] for s, lv in enumerate(self.levels) if s != seat]
        return LEVEL_RATINGS[self.levels[seat]] - statistics.fmean(others)


def play_and_review(rules: Rules, seed: str, levels: Sequence[str], iterations: int) -> Game:
    record, results = play_recorded(rules, seed, levels)
    chances, best = [], []
    for seat in range(rules.players):
        verdicts = [
            assess_record_step(record, index, f"cal:{seed}:{index}", iterations=iterations, time_ms=60_000)
            for index in record_decisions(record, seat)
        ]
        chances.append(tuple(v.p_played for v in verdicts))
        best.append(tuple(v.p_best for v in verdicts))
    return Game(seed, tuple(levels), tuple(results), tuple(chances), tuple(best))


def collect(ns: argparse.Namespace) -> int:
    rules = Rules.for_variant("podkidnoy", players=2)
    path = Path(ns.out)
    done = {game.seed for game in load([ns.out])} if path.exists() else set()
    with path.open("a") as out:
        for i in range(ns.games):
            levels = (ns.a, ns.b) if i % 2 == 0 else (ns.b, ns.a)
            seed = f"seat-calibration:{ns.seed}:{ns.a}:{ns.b}:{i}"
            if seed in done:  # a run cut short goes on where it stopped
                continue
            game = play_and_review(rules, seed, levels, ns.iterations)
            line = {
                "seed": game.seed,
                "levels": game.levels,
                "results": game.results,
                "chances": game.chances,
                "best": game.best,
                "iterations": ns.iterations,
            }
            out.write(json.dumps(line) + "\n")
            out.flush()
    return 0


def load(paths: Sequence[str]) -> list[Game]:
    games = []
    for path in paths:
        for text in Path(path).read_text().splitlines():
            if text.strip():
                row = json.loads(text)
                games.append(
                    Game(
                        row["seed"],
                        tuple(row["levels"]),
                        tuple(row["results"]),
                        tuple(tuple(c) for c in row["chances"]),
                        tuple(tuple(c) for c in row.get("best", ())),
                    )
                )
    return games


def samples(games: Sequence[Game]) -> Iterator[tuple[float, float, float]]:
    """``(raw chance, rating edge, outcome)`` of every decision of every seat."""
    for game in games:
        for seat, chances in enumerate(game.chances):
            edge = game.rating_edge(seat)
            for p in chances:
                yield p, edge, game.results[seat]


def fit(games: Sequence[Game]) -> ChanceMap:
    """The map of maximum likelihood: Newton's method on the three constants (the loss is convex)."""
    rows = [(ChanceMap.logit(p), edge / 400.0, y) for p, edge, y in samples(games)]
    theta = [0.0, 1.0, 0.0]
    for _ in range(50):
        grad = [0.0, 0.0, 0.0]
        hess = [[0.0] * 3 for _ in range(3)]
        for lg, d, y in rows:
            x = (1.0, lg, d)
            q = 1.0 / (1.0 + math.exp(-sum(t * xi for t, xi in zip(theta, x, strict=True))))
            w = q * (1.0 - q)
            for i in range(3):
                grad[i] += (q - y) * x[i]
                for j in range(3):
                    hess[i][j] += w * x[i] * x[j]
        for i in range(3):  # a whisker of ridge: a tiny set one seat won every game of stays solvable
            hess[i][i] += 1e-9 * len(rows)
        step = _solve3(hess, grad)
        theta = [t - s for t, s in zip(theta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return ChanceMap(*theta)


def _solve3(m: list[list[float]], v: list[float]) -> list[float]:
    """Cramer's rule for the 3×3 Newton step."""

    def det(a: list[list[float]]) -> float:
        return (
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
            - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        )

    d = det(m)
    out = []
    for k in range(3):
        a = [row[:] for row in m]
        for i in range(3):
            a[i][k] = v[i]
        out.append(det(a) / d)
    return out


def seat_name(game: Game, seat: int) -> str:
    """Who a seat is in a report: its level in an uneven game (the levels swap seats from game to
    game), its level and place at the table in an even one."""
    level = game.levels[seat]
    return level if len(set(game.levels)) > 1 else f"{level} at seat {seat}"


def seat_pairs(
    games: Sequence[Game], name: str, shown: Callable[[float, float], float]
) -> list[list[tuple[float, float]]]:
    """Per game, ``(chance shown, outcome)`` of each decision of the seat called ``name``."""
    out = []
    for game in games:
        pairs: list[tuple[float, float]] = []
        for seat, chances in enumerate(game.chances):
            if name == BOTH or seat_name(game, seat) == name:
                edge = game.rating_edge(seat)
                pairs.extend((shown(p, edge), game.results[seat]) for p in chances)
        out.append(pairs)
    return out


def figures(per_game: Sequence[Sequence[tuple[float, float]]]) -> tuple[float, float, float]:
    """Mean chance shown, observed rate (both over decisions) and the ECE."""
    pairs = [pair for game in per_game for pair in game]
    if not pairs:
        return math.nan, math.nan, math.nan
    return (
        statistics.fmean(p for p, _ in pairs),
        statistics.fmean(o for _, o in pairs),
        ece(reliability(pairs)),
    )


def bootstrap(per_game: Sequence[Sequence[tuple[float, float]]], seed: str) -> tuple[list[float], ...]:
    """95% ranges (2.5th and 97.5th percentiles) of the gap (shown minus observed) and the ECE."""
    rng = random.Random(seed)
    gaps, errors = [], []
    for _ in range(DRAWS):
        draw = [per_game[rng.randrange(len(per_game))] for _ in per_game]
        shown, seen, error = figures(draw)
        gaps.append(shown - seen)
        errors.append(error)
    return _range(gaps), _range(errors)


def _range(values: list[float]) -> list[float]:
    values = sorted(values)
    return [round(values[int(0.025 * len(values))], 3), round(values[int(0.975 * len(values)) - 1], 3)]


def report(games: Sequence[Game], chance_map: ChanceMap) -> dict[str, Any]:
    """Per pairing and per level held: games, decisions, and raw / mapped figures."""
    pairings: dict[tuple[str, ...], list[Game]] = defaultdict(list)
    for game in games:
        pairings[tuple(sorted(game.levels))].append(game)
    out: dict[str, Any] = {"map": chance_map.as_dict(), "pairings": []}
    for pairing, group in sorted(pairings.items()):
        entry: dict[str, Any] = {"pairing": " vs ".join(pairing), "games": len(group), "seats": []}
        for who in [*sorted({seat_name(g, s) for g in group for s in range(len(g.levels))}), BOTH]:
            seat: dict[str, Any] = {"seat": who}
            for name, shown in (("raw", lambda p, _e: p), ("mapped", chance_map)):
                per_game = seat_pairs(group, who, shown)
                mean, seen, error = figures(per_game)
                gap_range, ece_range = bootstrap(per_game, f"{pairing}:{who}:{name}")
                seat[name] = {
                    "decisions": sum(len(g) for g in per_game),
                    "shown": round(mean, 3),
                    "observed": round(seen, 3),
                    "gap": round(mean - seen, 3),
                    "gap_95": gap_range,
                    "ece": error,
                    "ece_95": ece_range,
                }
            entry["seats"].append(seat)
        out["pairings"].append(entry)
    out["labels"] = label_check(games, chance_map)
    return out


def label_check(games: Sequence[Game], chance_map: ChanceMap) -> dict[str, int]:
    """How many decisions would change label if the labels read the mapped chances' drop instead
    of the raw ones' (the review labels the raw drop, so none of its labels change)."""
    same = total = 0
    for game in games:
        if not game.best:  # collected before the best move's chance was kept
            continue
        for seat, (chances, best) in enumerate(zip(game.chances, game.best, strict=True)):
            edge = game.rating_edge(seat)
            for p, q in zip(chances, best, strict=True):
                total += 1
                same += label(max(0.0, q - p)) == label(max(0.0, chance_map(q, edge) - chance_map(p, edge)))
    return {"decisions": total, "same_label_if_mapped": same}


def print_report(data: dict[str, Any]) -> None:
    m = data["map"]
    print(f"map: a={m['a']:.4f} b={m['b']:.4f} c={m['c']:.4f}")
    print("| pairing | games | seat | decisions | chance | shown | observed | gap [95%] | ECE [95%] |")
    print("|---|---:|---|---:|---|---:|---:|---|---|")
    for entry in data["pairings"]:
        for seat in entry["seats"]:
            for name in ("raw", "mapped"):
                f = seat[name]
                print(
                    f"| {entry['pairing']} | {entry['games']} | {seat['seat']} | {f['decisions']} | {name} "
                    f"| {f['shown']:.3f} | {f['observed']:.3f} | {f['gap']:+.3f} "
                    f"[{f['gap_95'][0]:+.3f}, {f['gap_95'][1]:+.3f}] "
                    f"| {f['ece']:.3f} [{f['ece_95'][0]:.3f}, {f['ece_95'][1]:.3f}] |"
                )
    labels = data["labels"]
    print(
        f"labels: the review's come from raw drops, unchanged; read from mapped drops, "
        f"{labels['same_label_if_mapped']} of {labels['decisions']} decisions would keep theirs"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play and review bot games, one JSON line per game")
    c.add_argument("--a", default="medium")
    c.add_argument("--b", default="strong")
    c.add_argument("--games", type=int, default=50)
    c.add_argument("--iterations", type=int, default=200, help="the review's search per decision")
    c.add_argument("--seed", default="fit")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="the map's constants from collected games")
    f.add_argument("data", nargs="+")
    r = sub.add_parser("report", help="per-seat calibration, raw and mapped, with bootstrap ranges")
    r.add_argument("data", nargs="+")
    for name in ("a", "b", "c"):
        r.add_argument(f"--{name}", type=float, help="a map constant (default: the product's)")
    r.add_argument("--json", action="store_true")
    ns = parser.parse_args(argv)
    if ns.command == "collect":
        return collect(ns)
    games = load(ns.data)
    if ns.command == "fit":
        fitted = fit(games)
        decisions = sum(1 for _ in samples(games))
        print(f"{len(games)} games, {decisions} decisions: {json.dumps(fitted.as_dict())}")
        return 0
    chance_map = CHANCE_MAP if ns.a is None else ChanceMap(ns.a, ns.b, ns.c)
    data = report(games, chance_map)
    if ns.json:
        print(json.dumps(data))
    else:
        print_report(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
