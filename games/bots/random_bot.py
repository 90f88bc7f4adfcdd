"""The ``random`` bot: a uniformly random legal action, reproducible from its seed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engine.actions import Action


def choose_random(seat_view: Any, legal_actions: Sequence[Action], seed: str) -> Action:
    """Any legal action; the same seed and actions give the same choice.

    >>> from games.engine.actions import Action
    >>> acts = [Action.parse(t) for t in ("take", "cover 7S>6S")]
    >>> choose_random(None, acts, "x") == choose_random(None, acts, "x")
    True
    """
    return random.Random(seed).choice(list(legal_actions))
