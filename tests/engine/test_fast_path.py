"""The fast path every bot playout runs (``legal_fast``, ``apply_fast`` without events,
``first_awaited``) against the engine as the site plays it (``verify`` and ``apply`` with their
events): thousands of seeded random games played both ways side by side must agree on every
legal set, on every step's next seat, on every state and on every result. The fast path is
tuned for speed (``tools/bench_engine.py --base``), so this is what keeps it the same game.
"""

from __future__ import annotations

import random

import pytest

from games.engine import Action, Rules, new_game
from games.engine.explain import why_illegal

#: (variant, players, games): thousands of two-player games, the search's common case, and
#: fewer of the longer games of more players and of ``circle``.
CASES = [
    ("podkidnoy", 2, 1200),
    ("perevodnoy", 2, 1200),
    ("podkidnoy", 4, 150),
    ("perevodnoy", 3, 150),
    ("circle", 3, 20),
]


@pytest.mark.parametrize(("variant", "players", "games"), CASES)
def test_fast_path_and_engine_play_the_same_games(variant: str, players: int, games: int) -> None:
    rules = Rules.for_variant(variant, players)
    rng = random.Random(f"fast-{variant}-{players}")
    for i in range(games):
        fast = new_game(rules, seed=f"fast-{i}")
        ref = new_game(rules, seed=f"fast-{i}")
        while not ref.is_over:
            awaiting = ref.awaiting()
            assert fast.first_awaited() == next(iter(awaiting))
            seat = rng.choice(ref.actors())
            legal = fast.legal_fast(seat)
            assert legal == ref.legal_fast(seat)
            assert all(why_illegal(ref, seat, fa) is None for fa in legal)
            fa = rng.choice(legal)
            fast.apply_fast(seat, fa)
            ref.apply(seat, Action.from_fast(fa))
            assert fast.phase == ref.phase
        assert fast.is_over and fast.first_awaited() == -1
        assert fast.result() == ref.result()
        assert fast.to_json() == ref.to_json()
