"""A seeded set of finished matches for the puzzle tests: random legal games played through the
engine (``tests.ratings.builders``), the same every run."""

from __future__ import annotations

import random

from accounts.models import User
from games.engine import Rules
from games.models import Match
from tests.ratings.builders import finished_match

#: Seeds whose random games reach small endgames: five of them hold a puzzle, three a blunder, on
#: three themes (18 a throw-in, 26 a transfer, the others the endgame itself).
SEEDS = (0, 1, 2, 3, 5, 6, 7, 18, 26)


def variant(n: int) -> str:
    return "podkidnoy" if n % 2 else "perevodnoy"


def seeded_matches(users: list[User]) -> list[Match]:
    matches = [
        finished_match(
            users[:2], Rules.for_variant(variant(n), players=2), seed=f"pz{n}", rng=random.Random(n)
        )
        for n in SEEDS
    ]
    # A three-player match: never mined (its endgame is not one of perfect information for two).
    matches.append(
        finished_match(
            users[:3], Rules.for_variant("podkidnoy", players=3), seed="pz3p", rng=random.Random(9)
        )
    )
    return matches
