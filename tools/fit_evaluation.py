"""Fit the weights of :mod:`games.bots.evaluation` and print them with their held-out log loss.

``python -m tools.fit_evaluation [--games 14000] [--seed 1]``

Seeded two-player deals (podkidnoy and perevodnoy in turn) are played by the search's playout
policy (the heuristic with ``PLAYOUT_NOISE``); at the first lead after the stock ran out the two
hands and the leader are recorded, then the game is finished for its result. A logistic model,
linear in each hand's features (seat 0's minus seat 1's) and in who leads, is fitted by Newton's
method on four fifths of the games and scored on the rest. Copy the printed weights into
``games/bots/evaluation.py``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence

from games.bots.heuristic import heuristic_move
from games.bots.ismcts import PLAYOUT_NOISE, rewards
from games.engine import Rules, new_game
from games.engine.cards import cards_of
from games.engine.phases import LEAD, OVER

NAMES = (
    "PER_CARD",
    "PER_TRUMP",
    "PER_TRUMP_RANK",
    "PER_HIGH_PLAIN",
    "PER_PLAIN_RANK",
    "PER_LOW_PLAIN",
    "LEADING",
)


def features(hand: int, trump: int) -> list[float]:
    """One hand's features, in the order of ``NAMES`` (without the leader's)."""
    cards = cards_of(hand)
    ranks = [((c >> 2) + 2, c & 3 == trump) for c in cards]
    return [
        len(cards),
        sum(1 for _, t in ranks if t),
        sum(r - 5 for r, t in ranks if t),
        sum(1 for r, t in ranks if not t and r >= 13),
        sum(max(0, r - 9) for r, t in ranks if not t),
        sum(1 for r, t in ranks if not t and r <= 8),
    ]


def sample(i: int, seed: str) -> tuple[list[float], float] | None:
    """The features at the stock's end of game ``i`` and seat 0's result (None: no such lead)."""
    rules = Rules.for_variant("podkidnoy" if i % 2 == 0 else "perevodnoy", players=2)
    s = new_game(rules, seed=f"fit:{seed}:{i}")
    rng = random.Random(f"{seed}:{i}")
    x: list[float] | None = None
    while s.phase != OVER:
        if x is None and s.phase == LEAD and not s.stock:
            one, two = features(s.hands[0], s.trump_suit), features(s.hands[1], s.trump_suit)
            x = [a - b for a, b in zip(one, two, strict=True)] + [1.0 if s.attacker == 0 else -1.0]
        seat = next(iter(s.awaiting()))
        legal = s.legal_fast(seat)
        noisy = len(legal) > 1 and rng.random() < PLAYOUT_NOISE
        s.apply_fast(seat, legal[int(rng.random() * len(legal))] if noisy else heuristic_move(s, seat, legal))
    return None if x is None else (x, rewards(s)[0])


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    m = [[*row, v] for row, v in zip(a, b, strict=True)]
    n = len(b)
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _p(w: list[float], x: list[float]) -> float:
    z = sum(a * b for a, b in zip(w, x, strict=True))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def fit(rows: list[tuple[list[float], float]], steps: int = 8) -> list[float]:
    """Logistic regression by Newton's method (a tiny ridge keeps the Hessian invertible)."""
    k = len(rows[0][0])
    w = [0.0] * k
    for _ in range(steps):
        g = [0.0] * k
        h = [[1e-6 * (i == j) for j in range(k)] for i in range(k)]
        for x, y in rows:
            p = _p(w, x)
            for a in range(k):
                g[a] += (p - y) * x[a]
                for b in range(k):
                    h[a][b] += p * (1 - p) * x[a] * x[b]
        w = [wi - d for wi, d in zip(w, _solve(h, g), strict=True)]
    return w


def log_loss(w: list[float], rows: list[tuple[list[float], float]]) -> float:
    return -sum(y * math.log(_p(w, x)) + (1 - y) * math.log(1 - _p(w, x)) for x, y in rows) / len(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=14000)
    parser.add_argument("--seed", default="1")
    ns = parser.parse_args(argv)
    rows = [row for i in range(ns.games) if (row := sample(i, ns.seed)) is not None]
    cut = len(rows) * 4 // 5
    train, test = rows[:cut], rows[cut:]
    w = fit(train)
    for name, value in zip(NAMES, w, strict=True):
        print(f"{name} = {value:.3f}")
    print(f"held-out log loss {log_loss(w, test):.3f} (a coin: {math.log(2):.3f}), {len(rows)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
