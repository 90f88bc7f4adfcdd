"""The reviews of a match in its JSON export (``history.views.match_export_json`` adds them to
``history.match_export.match_export``, which stands on a lower floor and knows nothing of them)."""

from __future__ import annotations

from typing import Any

from games.bots.assess import BLUNDER, INACCURACY, MISTAKE
from games.models import Match

from .selectors import accuracy_of, match_reviews


def reviews_export(match: Match) -> list[dict[str, Any]]:
    """Each finished review: the seat, its accuracy, the label thresholds and every decision."""
    out = []
    for review in match_reviews(match=match):
        if review.status != review.Status.DONE:
            continue
        decisions = list(review.decisions.all())
        out.append(
            {
                "seat": review.seat,
                "accuracy": accuracy_of([d.label for d in decisions]),
                "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
                "decisions": [
                    {
                        "seq": d.seq,
                        "played": d.played,
                        "best": d.best,
                        "p_played": d.p_played,
                        "p_best": d.p_best,
                        "samples_played": d.samples_played,
                        "samples_best": d.samples_best,
                        "label": d.label,
                    }
                    for d in decisions
                ],
            }
        )
    return out
