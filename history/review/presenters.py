"""What the match page shows of its reviews: labels per replay step, the chart, the progress.

The chart is an SVG drawn by the template from numbers formatted here (plain ``.``-decimal
strings: an SVG's coordinates are for machines and never localised). Its x axis is the replay's
step, so a point sits where its step is in the replay; y is the chance of not being the fool
after the move made.

The chances shown are not the search's raw estimates (those stay in the database and the export,
and the labels are read from them): in a two-player match whose seats had ratings at the deal,
each goes through :data:`games.bots.chance.CHANCE_MAP` with the seat's rating edge, so that it
is the chance for players of those ratings (:func:`rating_edges`). Elsewhere the map was never
fitted, so the raw estimate is shown, and the page says which one it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.bots.chance import CHANCE_MAP
from games.engine import Action, IllegalAction, LegalMove
from games.models import MatchPlayer
from games.words import action_label

from .models import Review, ReviewDecision
from .selectors import accuracy_of

#: The label words, in the reader's language.
LABEL_WORDS = {
    "good": _("good"),
    "inaccuracy": _("inaccuracy"),
    "mistake": _("mistake"),
    "blunder": _("blunder"),
}

CHART_WIDTH = 600
CHART_HEIGHT = 160
CHART_PAD = 8


@dataclass(frozen=True, slots=True)
class StepVerdict:
    """The review's word on one logged move: the label, and the better move when there was one."""

    seat: int
    label: str
    word: str
    played: str
    best: str
    p_played: float
    p_best: float

    @property
    def better(self) -> bool:
        return self.label != "good" and self.best != self.played


@dataclass(frozen=True, slots=True)
class ChartPoint:
    x: str
    y: str
    step: int
    label: str
    title: str


@dataclass(frozen=True, slots=True)
class ReviewPanel:
    """One seat's review on the match page."""

    review: Review
    name: str
    percent: int
    accuracy: int | None
    counts: list[tuple[str, str, int]]
    points: list[ChartPoint]
    line: str
    #: Whether the chart's chances are for players of the seats' ratings (else the search's own).
    rated_chance: bool
    #: The seat lost with no decision a mistake: its accuracy must not read as the reason it lost.
    dealt_loss: bool


def _move_words(text: str) -> str:
    try:
        return str(action_label(LegalMove.from_fast(Action.parse(text).to_fast())))
    except (ValueError, IllegalAction):
        return text


def rating_edges(rules: Mapping[str, Any], players: Iterable[MatchPlayer]) -> dict[int, float]:
    """Seat -> its rating at the deal minus the opponent's, in a two-player match where both
    seats had one (bots: their level's start, people: their rating in the pool, provisional or
    not); empty otherwise, and a seat not in it is shown the search's raw chance."""
    rated = {p.seat: p.rating for p in players if p.rating is not None}
    if int(rules.get("players", 2)) != 2 or rules.get("teams") or len(rated) != 2:
        return {}
    total = sum(rated.values())
    return {seat: 2 * rating - total for seat, rating in rated.items()}


def shown_chance(raw: float, seat: int, edges: Mapping[int, float]) -> float:
    """The chance the page shows for a raw estimate of ``seat``'s (see the module's docstring)."""
    return CHANCE_MAP(raw, edges[seat]) if seat in edges else raw


def verdict(review: Review, decision: ReviewDecision, edges: Mapping[int, float]) -> StepVerdict:
    return StepVerdict(
        seat=review.seat,
        label=decision.label,
        word=str(LABEL_WORDS.get(decision.label, decision.label)),
        played=_move_words(decision.played),
        best=_move_words(decision.best),
        p_played=shown_chance(decision.p_played, review.seat, edges),
        p_best=shown_chance(decision.p_best, review.seat, edges),
    )


def step_verdicts(reviews: list[Review], edges: Mapping[int, float]) -> dict[int, StepVerdict]:
    """Move number (the replay's step) -> the verdict of the finished review of its seat."""
    out = {}
    for review in reviews:
        if review.status == Review.Status.DONE:
            for decision in review.decisions.all():
                out[decision.seq] = verdict(review, decision, edges)
    return out


def _chart(
    decisions: list[ReviewDecision], last_step: int, seat: int, edges: Mapping[int, float]
) -> tuple[list[ChartPoint], str]:
    span = max(last_step, 1)
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD
    points = []
    for d in decisions:
        chance = shown_chance(d.p_played, seat, edges)
        x = CHART_PAD + inner_w * d.seq / span
        y = CHART_PAD + inner_h * (1 - chance)
        title = f"{d.seq}: {round(100 * chance)}%"
        points.append(ChartPoint(f"{x:.1f}", f"{y:.1f}", d.seq, d.label, title))
    return points, " ".join(f"{p.x},{p.y}" for p in points)


#: The labels that count as a mistake in "no decision was a mistake".
MISTAKES = frozenset({"mistake", "blunder"})


def review_panels(
    reviews: list[Review],
    names: dict[int, str],
    last_step: int,
    losers: frozenset[int],
    edges: Mapping[int, float],
) -> list[ReviewPanel]:
    """The panels of ``reviews``; ``losers``: the seats that lost the match (the fool, the losing
    team), whose flawless review says that the cards dealt decided the game, not their play;
    ``edges``: :func:`rating_edges` of the match."""
    panels = []
    for review in reviews:
        decisions = list(review.decisions.all())
        labels = [d.label for d in decisions]
        done = review.status == Review.Status.DONE
        points, line = _chart(decisions, last_step, review.seat, edges) if done else ([], "")
        percent = 100 if done or not review.total else round(100 * review.done / review.total)
        counts = [(key, str(word), labels.count(key)) for key, word in LABEL_WORDS.items()]
        panels.append(
            ReviewPanel(
                review=review,
                name=names.get(review.seat, "?"),
                percent=percent,
                accuracy=accuracy_of(labels) if done else None,
                counts=counts,
                points=points,
                line=line,
                rated_chance=review.seat in edges,
                dealt_loss=done and review.seat in losers and not MISTAKES.intersection(labels),
            )
        )
    return panels
