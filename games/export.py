"""Exports: a finished match as JSON the engine replays, and a user's history as CSV.

The match JSON is the engine's ``GameRecord.to_json()`` (rules, seed, dealer, actions) plus the
stored result, the players and the seed commitment, under ``"format": "durak-match/1"``.
``match_import`` turns it back into the engine's final state, so anyone holding the file can
check that the actions replay to the result the site recorded.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from games.engine import GameRecord, GameState
from games.fairness import seed_commitment
from games.history import row_outcome
from games.models import Match, MatchPlayer
from games.selectors import match_record

FORMAT = "durak-match/1"

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


def match_export(match: Match) -> dict[str, Any]:
    """A finished match as JSON-ready data (raises ``ValueError`` while it runs: the seed is
    secret until the end)."""
    if match.status != Match.Status.FINISHED:
        raise ValueError("only a finished match can be exported")
    record = match_record(match).to_json()
    return {
        "format": FORMAT,
        "match": match.pk,
        **record,
        "commitment": seed_commitment(match),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "players": [
            {"seat": player.seat, "name": str(player.user.public_name), "bot": bool(player.user.is_bot)}
            for player in match.players.all()
        ],
        "result": match.result,
    }


def match_import(data: dict[str, Any]) -> GameState:
    """Replay an exported match through the engine; returns the final state.

    Raises ``ValueError`` for another format and the engine's ``IllegalAction`` for an action
    that is not legal where it stands."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} export")
    return GameRecord.from_json(data).replay()


def history_csv(rows: Iterable[MatchPlayer]) -> str:
    """History rows (``games.history.user_history``) as CSV text, one line per match."""
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
