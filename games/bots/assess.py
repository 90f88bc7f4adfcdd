"""Assessing a decision after the game: the strong search's best move and how much the move made lost.

The review of a finished game (``history.review``) asks, at each decision of one seat, what the
strong bot's search (:mod:`games.bots.ismcts`) thinks of it, from **that seat's information only**:
the seat's :class:`~games.engine.visibility.View` at that moment, its legal actions, the table's rules
and the public history, exactly what the bot itself would be given at the table. The hidden cards
never reach this module (the search samples them afresh, :class:`~games.engine.InfoState`), so a
review cannot be clairvoyant: two games that differ only in cards the seat never saw get the same
assessment (``tests/history/test_review_hidden.py``).

:func:`assess` runs one search over every choice and reads off the root: the most visited move
is the best, and a move's estimated probability of not being the fool is the mean result of the
playouts through it (a draw counts a half, as in the bot). The move made is often rarely tried by
a search that found it poor, so when it has fewer than :data:`MIN_VISITS` visits a second
search with that move alone at the root estimates it on its own samples.

:func:`label` turns the drop (best minus made, never negative) into a word, with thresholds
above the sampling noise: with ``n`` samples behind each estimate the standard error of a
difference is at most ``sqrt(0.5 / n)``, about 0.03 at 500, so a drop under
:data:`INACCURACY` (0.08) is within noise and called good; the larger steps follow Lichess's
inaccuracy / mistake / blunder ladder (0.05, 0.10, 0.15 on the
probability scale), widened for the noise.

>>> from games.engine import Rules, new_game
>>> s = new_game(Rules(), seed="assess")
>>> seat = s.actors()[0]
>>> legal = s.legal_actions(seat)
>>> a = assess(s.view(seat), legal, legal[0], "doc", rules=Rules(), history=[], iterations=60)
>>> 0.0 <= a.p_played <= 1.0 and 0.0 <= a.p_best <= 1.0 and a.samples_best > 0
True
>>> label(0.0), label(0.1), label(0.2), label(0.4)
('good', 'inaccuracy', 'mistake', 'blunder')
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from games.engine.actions import Action, FastAction
from games.engine.infostate import EventLike, InfoState
from games.engine.record import GameRecord
from games.engine.rules import Rules

from .ismcts import Search

#: Iterations of a review's search per decision (the live bot's default is 4000 under 300 ms; a
#: review has no clock at the table but shares a worker, so it settles for fewer).
REVIEW_ITERATIONS: Final = 1200
#: The wall-clock cap per decision in milliseconds (a review's task does one decision per run).
REVIEW_TIME_MS: Final = 2500.0
#: Fewer visits than this for the move made and it gets a search of its own.
MIN_VISITS: Final = 40

#: The drops in the probability of not being the fool that start each label.
INACCURACY: Final = 0.08
MISTAKE: Final = 0.15
BLUNDER: Final = 0.25
LABELS: Final = ("good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True, slots=True)
class Assessment:
    """One decision: the move made and the search's best move (notation), each one's estimated
    probability of not being the fool, the samples behind each estimate, and the label."""

    played: str
    best: str
    p_played: float
    p_best: float
    samples_played: int
    samples_best: int

    @property
    def drop(self) -> float:
        return max(0.0, self.p_best - self.p_played)

    @property
    def label(self) -> str:
        return label(self.drop)


def label(drop: float) -> str:
    """The word for a drop in the probability of not being the fool."""
    if drop >= BLUNDER:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return "good"


def is_decision(legal_actions: Sequence[Action]) -> bool:
    """Whether there was a choice to make (a redeal offer aside): forced moves are not reviewed."""
    return len([a for a in legal_actions if a.kind != "redeal"]) > 1


def _run(search: Search, iterations: int, deadline: float) -> None:
    while search.iterations < iterations:
        search.iterate()
        if time.perf_counter() >= deadline:
            break


def assess(
    seat_view: Any,
    legal_actions: Sequence[Action],
    played: Action,
    seed: str,
    *,
    rules: Rules | None = None,
    history: Iterable[EventLike] | None = None,
    iterations: int = REVIEW_ITERATIONS,
    time_ms: float = REVIEW_TIME_MS,
) -> Assessment:
    """The strong search's verdict on ``played`` for ``seat_view.viewer``, from its information alone.

    Reproducible for a seed whenever ``iterations``, not ``time_ms``, ends each search."""
    start = time.perf_counter()
    choices = [a for a in legal_actions if a.kind != "redeal"] or list(legal_actions)
    if played not in choices:
        choices.append(played)
    legal: list[FastAction] = [a.to_fast() for a in choices]
    info = InfoState(seat_view, rules, list(history or ()), remember_discard=True)
    rng = random.Random(seed)
    search = Search(info, legal, rng)
    _run(search, iterations, start + time_ms / 1000)
    best = search.best()
    stats = search.root.children
    best_node = stats.get(best)
    p_best = best_node.total / best_node.visits if best_node and best_node.visits else 0.5
    samples_best = best_node.visits if best_node else 0
    mine = played.to_fast()
    node = stats.get(mine)
    if mine == best:
        p_played, samples_played = p_best, samples_best
    elif node is not None and node.visits >= MIN_VISITS:
        p_played, samples_played = node.total / node.visits, node.visits
    else:
        alone = Search(info, [mine], rng)
        _run(alone, max(MIN_VISITS, iterations // 2), time.perf_counter() + time_ms / 2000)
        only = alone.root.children.get(mine)
        p_played = only.total / only.visits if only and only.visits else 0.5
        samples_played = only.visits if only else 0
    return Assessment(
        played=str(played),
        best=str(Action.from_fast(best)),
        p_played=round(p_played, 4),
        p_best=round(p_best, 4),
        samples_played=samples_played,
        samples_best=samples_best,
    )


def record_decisions(record: GameRecord, seat: int) -> list[int]:
    """The indices (into ``record.actions``) of ``seat``'s actions that were a choice."""
    out = []
    state = record.start()
    for i, (who, text) in enumerate(record.actions):
        if who == seat and is_decision(state.legal_actions(who)):
            out.append(i)
        state.apply(who, Action.parse(text))
    return out


def assess_record_step(record: GameRecord, index: int, seed: str, **search: Any) -> Assessment:
    """:func:`assess` of the ``index``-th action of ``record``: the game is replayed to just
    before it, and the search is given the actor's view, the legal actions and the public events
    so far, as the live bots are (``play.services.turn``), never the state itself."""
    state = record.start()
    history: list[EventLike] = []
    for who, text in record.actions[:index]:
        history.extend(e.to_dict() for e in state.apply(who, Action.parse(text)))
    seat, text = record.actions[index]
    return assess(
        state.view(seat),
        state.legal_actions(seat),
        Action.parse(text),
        seed,
        rules=record.rules,
        history=history,
        **search,
    )
