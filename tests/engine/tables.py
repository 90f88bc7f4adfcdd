"""One table of each kind, and the positions of a random game with the history up to each:
shared by the information-set tests here and the bot tests (``tests/bots``)."""

from __future__ import annotations

import random

from games.engine import Event, GameState, Rules, new_game

#: One table of each kind a seat's information must cover (name, rules).
TABLES: list[tuple[str, Rules]] = [
    ("podkidnoy-2", Rules.for_variant("podkidnoy", players=2)),
    ("podkidnoy-3-neighbours", Rules.for_variant("podkidnoy", players=3, throw_in="neighbours")),
    ("perevodnoy-4", Rules.for_variant("perevodnoy", players=4)),
    ("perevodnoy-3-show", Rules.for_variant("perevodnoy", players=3, transfer_by_trump_show=True)),
    ("podkidnoy-4-teams", Rules.for_variant("podkidnoy", players=4, teams=True)),
    ("podkidnoy-6-24", Rules.for_variant("podkidnoy", players=4, deck=24)),
    ("circle-3", Rules.for_variant("circle", players=3)),
    ("circle-4-jokers", Rules.for_variant("circle", players=4, jokers=2)),
    (
        "circle-2-jokers-pass-on",
        Rules.for_variant("circle", players=2, jokers=2, joker_last="pass_on", joker_beats="colour"),
    ),
]


def random_walk(rules: Rules, seed: str) -> list[tuple[GameState, list[Event]]]:
    """Every position of one random game, with the public history up to it."""
    rng = random.Random(seed)
    history: list[Event] = []
    state = new_game(rules, seed=seed, events=history)
    out = []
    while not state.is_over:
        out.append((state.clone(), list(history)))
        seat = rng.choice(state.actors())
        history.extend(state.apply(seat, rng.choice(state.legal_actions(seat))))
    return out
