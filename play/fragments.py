"""The match page's fragments rendered for one viewer, as htmx out-of-band swaps.

Shared by the socket push (``play.consumers``) and the htmx POST fallback of a move
(``play.views``) so both send exactly the fragments the full page draws in place: each is a
macro of the Jinja2 template ``games/match_fragments.html`` (``play.jinja`` says why),
drawn from the viewer's ``MatchContext`` only.

Public fragments drawn once: the seats, the felt (stock, bout, discard) and a push's new log
lines are remembered in the process under everything they are drawn from, their part of the
viewer's context and the language (``_public``), and drawn from that part alone. An entry is
therefore found only by a viewer whose own context holds exactly those values, so it can never
show another match, version, language or viewer what they would not draw themselves, and nothing
is remembered for a time: the status (the turn timer), the hand, the actions, the error line and
the whole log of a (re)connect are drawn for each viewer on each push. Every spectator of a match
and every tab of a seat shares the public fragments, and so do seats that see the same felt (no
card of theirs to cover with) or the same seats (three or more players see the table from
different chairs, so mostly not).
"""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.utils import translation
from jinja2 import Template
from markupsafe import Markup

from accounts.models import User
from games.memos import memo
from play import selectors
from play.loaded import LoadedMatch
from play.presenters import MatchContext, present_match

TEMPLATE = "games/match_fragments.html"
#: The public fragments and the fields of ``MatchContext`` each one is drawn from.
PUBLIC: dict[str, tuple[str, ...]] = {
    "players": ("seats", "result"),
    "table": (
        "stock_count",
        "trump_card",
        "trump_suit",
        "trump_suit_symbol",
        "drawn",
        "drawn_caption",
        "circle",
        "circle_targets",
        "pairs",
        "discard_count",
        "taking_text",
        "stock_text",
        "discard_text",
    ),
    "logappend": ("log",),
}


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
    # The fragments of the template's "push", in its order (``tests/games/test_fragment_cache.py``
    # holds them to it): the public ones remembered, the viewer's own drawn now.
    drawn = macros()
    parts = [
        _public("players", context),
        _public("table", context),
        drawn.status(context, True),
        drawn.result(context, True),
        drawn.hand(context, True),
        drawn.actions(context, True),
    ]
    if log_after is None:  # the whole log, on a (re)connect: drawn, not remembered (it can be long)
        parts.append(drawn.log(context, True))
    elif context.log:
        parts.append(_public("logappend", context))
    parts.append(drawn.error(error, "", True))
    return "".join(parts), context.version, max(context.last_seq, log_after or 0)


def macros() -> Any:
    """The fragments' macros in the active language (the template is compiled once; in development
    it reloads when its file changes)."""
    template = engines["jinja2"].env.get_template(TEMPLATE)  # type: ignore[attr-defined]
    return _module(template, translation.get_language())


@memo(16)
def _module(template: Template, language: str | None) -> Any:
    """The template's macros for one language, whose ``_`` is that language's remembered
    ``gettext`` (``_translated``). The environment's ``_`` is Django's ``gettext`` behind two
    calls through the template's context, each of which looked the active language up in
    asgiref's context-local storage, for each of a push's twenty-odd labels. Keyed by the
    template object too, so a template reloaded in development gets modules of its own."""
    return template.make_module({"_": partial(_translated, language)})


@memo(4096)
def _translated(language: str | None, message: str) -> str:
    """``gettext(message)`` in ``language`` (``games.memos`` says why it may be remembered)."""
    with translation.override(language):
        return translation.gettext(message)


def _public(name: str, context: MatchContext) -> str:
    """The public fragment ``name`` of ``context`` (out of band), drawn once per process for its
    values and the language."""
    values = tuple(getattr(context, field) for field in PUBLIC[name])
    return _drawn(name, translation.get_language(), values)


#: Entries are of use while their version is the match's newest, a few seconds under load; a
#: thousand of them (a few kB each: the seats, the felt, a move's log lines) hold every match in
#: play's newest ones at hundreds of tables.
@memo(1024)
def _drawn(name: str, language: str | None, values: tuple[Any, ...]) -> str:
    """Draw a public fragment from nothing but ``values`` (the key it is remembered under)."""
    m = SimpleNamespace(**dict(zip(PUBLIC[name], values, strict=True)))
    with translation.override(language):
        macro = getattr(macros(), name)
        fragment: Markup = macro(m) if name == "logappend" else macro(m, True)
        return str(fragment)


def render_error(message: str, *, code: str = "") -> str:
    """The match page's error line as an out-of-band swap (an empty message clears it)."""
    return str(macros().error(message, code, True))
