"""The oracle: the strong bot's search playing with perfect information, a bound for fair bots.

A cheater, so only the strength harness knows it (``python -m tools.bot_matches --a oracle --b
strong``): it needs the true game state at each decision, which the harness has because it plays
the game. Every determinization its search deals is the true deal (:class:`TrueInfoState`: the
real hidden hands, the real discard, the real stock in its real order); everything else is the
strong bot's own :func:`games.bots.ismcts.search_move`: the same shortcuts (a weak hand's redeal,
waiting to throw in, the exact endgame where the strong bot tries it), the same tree policy and
playouts, the same budget of CPU per decision. Against ``strong`` at equal CPU its score is what
knowing every card is worth to this search: Durak's luck and hidden cards leave the rest, so a
fair bot that searches no better than this one scores no more.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from games.bots import ismcts
from games.bots.budget import Budget
from games.bots.inference import ReadInfoState
from games.bots.ismcts import Decision
from games.engine import Action, Rules
from games.engine.infostate import EventLike
from games.engine.state import GameState


class TrueInfoState(ReadInfoState):
    """The strong bot's information set of ``seat_view.viewer`` (built as it builds it, so the
    template, the clues and their cost are its own) whose every sample is ``truth``'s deal."""

    def __init__(
        self,
        truth: GameState,
        seat_view: Any,
        rules: Rules | None = None,
        history: Iterable[EventLike] | None = None,
        *,
        remember_discard: bool = True,
    ) -> None:
        super().__init__(seat_view, rules, history, remember_discard=remember_discard)
        self.truth = truth

    def sample(self, rng: random.Random) -> GameState:
        """The public template with the true hands, discard and stock (a fresh copy each time:
        the search plays on it). The playouts' seed is drawn as for a random sample."""
        s = self.template.clone()
        s.hands = list(self.truth.hands)
        s.discard = self.truth.discard
        s.stock = list(self.truth.stock)
        s.seed = f"det{rng.getrandbits(32)}"
        return s


def decide_oracle(
    truth: GameState,
    seat_view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    rules: Rules,
    history: Iterable[EventLike],
    budget: Budget,
) -> Decision:
    """The strong bot's decision (:func:`games.bots.ismcts.decide_strong`'s settings) with every
    determinization the true state ``truth``. The search builds its information set by the name
    ``ReadInfoState`` in :mod:`games.bots.ismcts`; for this call that name makes a
    :class:`TrueInfoState`, so the product's search runs unchanged."""

    def true_info(
        view: Any, rules: Rules | None, history: Iterable[EventLike] | None, *, remember_discard: bool
    ) -> TrueInfoState:
        return TrueInfoState(truth, view, rules, history, remember_discard=remember_discard)

    names = vars(ismcts)
    saved = names["ReadInfoState"]
    names["ReadInfoState"] = true_info
    try:
        return ismcts.search_move(
            seat_view, legal_actions, seed, rules, history, budget, careful=True, endgame=True, reads=True
        )
    finally:
        names["ReadInfoState"] = saved
