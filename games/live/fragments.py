"""The match page's fragments rendered for one viewer, as htmx out-of-band swaps.

Shared by the socket push (``games.live.consumers``) and the htmx POST fallback of a move
(``games.live.views``) so both send exactly the fragments the full page renders
("games/match.html#hand" …), built from the viewer's ``MatchContext`` only.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from accounts.models import User
from games.live import selectors
from games.live.loaded import LoadedMatch
from games.live.presenters import present_match


def match_fragments(
    loaded: LoadedMatch, user: User | AnonymousUser, *, error: str = "", log_after: int | None = None
) -> tuple[str, int, int]:
    """``(html, version, last_seq)``: every fragment of ``user``'s view of the loaded match.

    With ``log_after`` only the log lines after that move are sent (appended to the list);
    otherwise the whole log replaces it. Lines ``loaded`` does not carry are read
    (``selectors.with_moves_after``): a push loads just the lines it sends, and a move's result
    carries the move it logged, so for the mover whose page showed the line before it nothing is
    read. The error line is always sent (empty clears it)."""
    loaded = selectors.with_moves_after(loaded, after_seq=log_after or 0)
    context = present_match(loaded, user)
    # One template render for the whole push: the "push" fragment holds the fragments that change
    # with a move (players, table, status, hand, actions), the log and the error line; a render
    # per fragment cost a template lookup and a context each.
    data = {"m": context, "oob": True, "full_log": log_after is None, "error": error, "error_code": ""}
    html = render_to_string("games/match.html#push", data)
    return html, context.version, max(context.last_seq, log_after or 0)


def render_error(message: str, *, code: str = "") -> str:
    """The match page's error line as an out-of-band swap (an empty message clears it)."""
    return render_to_string("games/match.html#error", {"error": message, "error_code": code, "oob": True})
