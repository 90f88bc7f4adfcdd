"""Reads of game reviews for the match page, the history list and the export."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Prefetch

from games.models import Match

from .models import Review, ReviewDecision


def match_reviews(*, match: Match) -> list[Review]:
    """Every review of the match (done or under way), by seat, with their decisions."""
    return list(
        Review.objects.filter(match=match)
        .prefetch_related(Prefetch("decisions", queryset=ReviewDecision.objects.order_by("seq")))
        .order_by("seat")
    )


def review_accuracies(*, rows: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Match id -> accuracy (``presenters.accuracy``) of the finished reviews of the given
    ``(match id, seat)`` pairs (one user's history rows)."""
    wanted = set(rows)
    if not wanted:
        return {}
    reviews = Review.objects.filter(
        match_id__in={m for m, _ in wanted}, status=Review.Status.DONE
    ).prefetch_related("decisions")
    from_labels = {}
    for review in reviews:
        if (review.match_id, review.seat) in wanted:
            from_labels[review.match_id] = [d.label for d in review.decisions.all()]
    return {match_id: accuracy_of(labels) for match_id, labels in from_labels.items() if labels}


def accuracy_of(labels: list[str]) -> int:
    """The share of decisions labelled good, in whole per cent (the history list's figure).

    >>> accuracy_of(["good", "good", "blunder", "good"])
    75
    """
    return round(100 * sum(1 for label in labels if label == "good") / len(labels)) if labels else 100
