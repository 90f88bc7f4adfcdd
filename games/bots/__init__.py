"""Bots that play a seat: pure Python, no Django, and they read only what the seat may see.

``choose_action(level, seat_view, legal_actions, seed, rules=..., history=...)`` is the one entry point:
the site calls it for a bot's seat or an autopilot, with the seat's ``View``, the engine's legal
actions for that seat, the table's rules and the public history (the events every player saw),
never the game state, so a bot cannot peek at hands or the stock. ``seed`` makes the choice
reproducible (a replayed task picks the same move).

Levels: ``random`` (any legal action, uniformly), ``easy`` (cheapest-card heuristics, see
``games.bots.easy``), ``medium`` and ``strong`` (information-set Monte Carlo tree search over
deals consistent with what the seat has seen, see ``games.bots.ismcts``). Only the searching levels
use the rules and the history: the rules tell them about partners and who may throw in, the history
what a careful player remembers (cards a taker picked up, the discard by face).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.engine.actions import Action
from games.engine.rules import Rules

from .easy import choose_easy
from .ismcts import Decision, choose_strong, decide_strong
from .medium import choose_medium, decide_medium
from .random_bot import choose_random

#: A bot: (the seat's view, its legal actions, a seed) -> one of those actions.
Chooser = Callable[[Any, Sequence[Action], str], Action]

BOTS: dict[str, Chooser] = {
    "random": choose_random,
    "easy": choose_easy,
    "medium": choose_medium,
    "strong": choose_strong,
}
#: The levels that search: they also take the rules and the public history (keyword arguments),
#: and tell what their decision cost (:class:`Decision`).
SEARCHING: dict[str, Callable[..., Decision]] = {"medium": decide_medium, "strong": decide_strong}
#: Seconds a level's answer takes to show, whether its move was forced or chosen: the searching
#: levels search only when they have a choice (medium up to 0.2 s and strong up to 0.5 s of CPU,
#: ``MEDIUM_BUDGET`` and ``STRONG_BUDGET``), so a quick forced "take" would tell the table that
#: they held no card that covers. The site waits out the rest of this time after the search
#: (``docs/rules.md`` §6 "Bots take the same time").
THINK_SECONDS: dict[str, float] = {"random": 0.0, "easy": 0.0, "medium": 0.25, "strong": 0.6}
LEVELS: tuple[str, ...] = tuple(BOTS)


def choose_action(
    level: str,
    seat_view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    *,
    rules: Rules | None = None,
    history: Iterable[Any] | None = None,
    late: float = 0.0,
) -> Action:
    """The bot of ``level``'s choice among ``legal_actions`` (must not be empty). ``late``: the
    seconds its turn was picked up after it was due; a searching level then spends less
    (:meth:`games.bots.budget.Budget.after`).

    >>> from games.engine.actions import Action
    >>> str(choose_action("random", None, [Action.parse("take")], "s"))
    'take'
    """
    return decide(level, seat_view, legal_actions, seed, rules=rules, history=history, late=late).action


def decide(
    level: str,
    seat_view: Any,
    legal_actions: Sequence[Action],
    seed: str,
    *,
    rules: Rules | None = None,
    history: Iterable[Any] | None = None,
    late: float = 0.0,
) -> Decision:
    """:func:`choose_action`'s move with what it cost: a searching level's iterations and CPU
    seconds (none for the others), which the site records per level."""
    if not legal_actions:
        raise ValueError("a bot was asked to act without legal actions")
    try:
        chooser = BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})") from None
    if level in SEARCHING:
        return SEARCHING[level](seat_view, legal_actions, seed, rules=rules, history=history, late=late)
    return Decision(chooser(seat_view, legal_actions, seed))
