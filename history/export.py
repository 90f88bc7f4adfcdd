"""A user's history as CSV: one line per finished match, with the rating change if it was rated."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from games.models import MatchPlayer
from history.selectors import row_outcome

CSV_HEADER = (
    "match",
    "finished_at",
    "variant",
    "players",
    "teams",
    "rated",
    "seat",
    "place",
    "outcome",
    "rating_change",
    "opponents",
)


def history_csv(rows: Iterable[MatchPlayer]) -> str:
    """History rows (``history.selectors.user_history``) as CSV text, one line per match."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for row in rows:
        match = row.match
        rules = match.rules
        opponents = [str(p.user.public_name) for p in match.players.all() if p.user_id != row.user_id]
        delta = getattr(row, "rating_delta", None)
        writer.writerow(
            (
                match.pk,
                match.finished_at.isoformat() if match.finished_at else "",
                rules.get("variant"),
                rules.get("players"),
                int(bool(rules.get("teams"))),
                int(match.table.rated),
                row.seat,
                row.place,
                row_outcome(row),
                "" if delta is None else f"{delta:+.2f}",
                "; ".join(opponents),
            )
        )
    return out.getvalue()
