"""The match page's fragments rendered for one viewer, as htmx out-of-band swaps.

Shared by the socket push (``games.live.consumers``) and the htmx POST fallback of a move
(``games.live.views``) so both send exactly the fragments the full page renders
("games/match.html#hand" …), built from the viewer's ``MatchContext`` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from accounts.models import User
from games.live import selectors
from games.live.presenters import present_match
from games.live.services import ActionResult
from games.models import Match, MatchPlayer, Move


def match_fragments(
    match: Match,
    user: User | AnonymousUser,
    *,
    error: str = "",
    log_after: int | None = None,
    players: Sequence[MatchPlayer] | None = None,
    moves: Sequence[Move] | None = None,
) -> tuple[str, int, int]:
    """``(html, version, last_seq)``: every fragment of ``user``'s view of ``match``.

    With ``log_after`` only the log lines after that move are sent (appended to the list; they are
    read unless ``moves`` holds them); otherwise the whole log replaces it. ``players`` (with their
    users) default to the match's own. The error line is always sent (empty clears it)."""
    if log_after is not None and moves is None:
        moves = list(selectors.match_moves(match_id=match.pk, after_seq=log_after))
    context = present_match(match, user, players=players, moves=moves)
    # One template render for the whole push: the "push" fragment holds the fragments that change
    # with a move (players, table, status, hand, actions), the log and the error line; a render
    # per fragment cost a template lookup and a context each.
    data = {"m": context, "oob": True, "full_log": log_after is None, "error": error, "error_code": ""}
    html = render_to_string("games/match.html#push", data)
    return html, context.version, max(context.last_seq, log_after or 0)


def action_fragments(result: ActionResult, user: User, *, log_after: int | None) -> tuple[str, int, int]:
    """``match_fragments`` for the player whose move ``result`` is, drawn from the rows the move
    committed rather than read back: the mover's page is updated without a query. Only when the
    move does not directly follow the last line this page shows (``log_after``) is the log read."""
    move = result.move
    moves = [move] if log_after is not None and move.seq == log_after + 1 else None
    return match_fragments(result.match, user, log_after=log_after, players=result.players, moves=moves)


def render_error(message: str, *, code: str = "") -> str:
    """The match page's error line as an out-of-band swap (an empty message clears it)."""
    return render_to_string("games/match.html#error", {"error": message, "error_code": code, "oob": True})
