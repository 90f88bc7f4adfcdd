"""A finished match as JSON that the engine replays.

The match JSON is the engine's ``GameRecord.to_json()`` (rules, seed, dealer, actions) plus the
stored result, the players, the seed commitment, the server seed and the players' values the
seed was derived from (``games.seeding``; empty for matches dealt before players sent values), and
the table chat of both rooms (``"chat"``: each line's room, seat, author, quick-phrase code or
text, and time), under ``"format": "durak-match/1"``.
``match_import`` turns it back into the engine's final state, so anyone holding the file can
check that the actions replay to the result the site recorded.
"""

from __future__ import annotations

from typing import Any

from games.engine import GameRecord, GameState
from games.fairness import seed_commitment
from games.models import Match
from play.chat.selectors import match_lines
from play.selectors import match_record

FORMAT = "durak-match/1"


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
        "server_seed": match.server_seed,
        "contributions": match.contributions,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "players": [
            {"seat": player.seat, "name": str(player.user.public_name), "bot": bool(player.user.is_bot)}
            for player in match.players.all()
        ],
        "result": match.result,
        "chat": [
            {
                "room": line.room,
                "seat": line.seat,
                "name": str(line.author.public_name),
                **({"phrase": line.phrase} if line.phrase else {"text": line.text}),
                "at": line.created.isoformat(),
            }
            for line in match_lines(match)
        ],
    }


def match_import(data: dict[str, Any]) -> GameState:
    """Replay an exported match through the engine; returns the final state.

    Raises ``ValueError`` for another format and the engine's ``IllegalAction`` for an action
    that is not legal where it stands."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} export")
    return GameRecord.from_json(data).replay()
