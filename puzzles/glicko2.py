"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), the system Lichess rates its
puzzles with: a rating, its deviation (how sure it is) and a volatility. A puzzle attempt is one
game between the player and the puzzle, rated at once (a rating period of one game), so both move
with every rated attempt. Pure Python: the PyPI ``glicko2`` package is an unmaintained 2012
single file; the algorithm is a page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Glicko-2's scale factor between the displayed scale and its internal one.
SCALE = 173.7178
#: The system constant: how much the volatility may change (the paper suggests 0.3 to 1.2).
TAU = 0.5
EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after a period of ``games`` (opponent, score 1/0.5/0)."""
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    if not games:
        return Rating(
            player.rating, min(350.0, math.sqrt(phi**2 + player.volatility**2) * SCALE), player.volatility
        )
    terms = [((o.rating - 1500) / SCALE, o.deviation / SCALE, s) for o, s in games]
    v = 1 / sum(_g(pj) ** 2 * _e(mu, mj, pj) * (1 - _e(mu, mj, pj)) for mj, pj, _s in terms)
    delta = v * sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in terms)
    sigma = _volatility(delta, phi, v, player.volatility, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu_new = mu + phi_new**2 * sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in terms)
    return Rating(mu_new * SCALE + 1500, phi_new * SCALE, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility by the Illinois algorithm."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = c, fc
    return math.exp(big_a / 2)
