"""What the match page shows of its reviews: labels per replay step, the chart, the progress.

The chart is an SVG drawn by the template from numbers formatted here (plain ``.``-decimal
strings: an SVG's coordinates are for machines and never localised). Its x axis is the replay's
step, so a point sits where its step is in the replay; y is the estimated probability of not
being the fool after the move made.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from games.engine import Action, IllegalAction, LegalMove
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
    #: The seat lost with no decision a mistake: its accuracy must not read as the reason it lost.
    dealt_loss: bool


def _move_words(text: str) -> str:
    try:
        return str(action_label(LegalMove.from_fast(Action.parse(text).to_fast())))
    except (ValueError, IllegalAction):
        return text


def verdict(review: Review, decision: ReviewDecision) -> StepVerdict:
    return StepVerdict(
        seat=review.seat,
        label=decision.label,
        word=str(LABEL_WORDS.get(decision.label, decision.label)),
        played=_move_words(decision.played),
        best=_move_words(decision.best),
        p_played=decision.p_played,
        p_best=decision.p_best,
    )


def step_verdicts(reviews: list[Review]) -> dict[int, StepVerdict]:
    """Move number (the replay's step) -> the verdict of the finished review of its seat."""
    out = {}
    for review in reviews:
        if review.status == Review.Status.DONE:
            for decision in review.decisions.all():
                out[decision.seq] = verdict(review, decision)
    return out


def _chart(decisions: list[ReviewDecision], last_step: int) -> tuple[list[ChartPoint], str]:
    span = max(last_step, 1)
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD
    points = []
    for d in decisions:
        x = CHART_PAD + inner_w * d.seq / span
        y = CHART_PAD + inner_h * (1 - d.p_played)
        title = f"{d.seq}: {round(100 * d.p_played)}%"
        points.append(ChartPoint(f"{x:.1f}", f"{y:.1f}", d.seq, d.label, title))
    return points, " ".join(f"{p.x},{p.y}" for p in points)


#: The labels that count as a mistake in "no decision was a mistake".
MISTAKES = frozenset({"mistake", "blunder"})


def review_panels(
    reviews: list[Review], names: dict[int, str], last_step: int, losers: frozenset[int]
) -> list[ReviewPanel]:
    """The panels of ``reviews``; ``losers``: the seats that lost the match (the fool, the losing
    team), whose flawless review says that the cards dealt decided the game, not their play."""
    panels = []
    for review in reviews:
        decisions = list(review.decisions.all())
        labels = [d.label for d in decisions]
        done = review.status == Review.Status.DONE
        points, line = _chart(decisions, last_step) if done else ([], "")
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
                dealt_loss=done and review.seat in losers and not MISTAKES.intersection(labels),
            )
        )
    return panels
