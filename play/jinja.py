"""The Jinja2 environment of the match page's fragments
(``templates/jinja2/games/match_fragments.html``).

Why a second template engine for these alone: every move sends every seated socket its viewer's
fragments again (the seats, the felt, the status, the hand, the actions, the new log lines), and
drawing them was about a third of a loaded daphne's time (``docs/performance.md``). Jinja2 compiles a
template to Python once; Django's engine walks its nodes, resolves every variable through its
lookup rules and localises every value on each render. A whole push of the same markup draws in
0.38-0.41 of the time here (1.18-1.36 ms against 0.49-0.55 ms, mid-game, two players). Every
other page stays a Django template; the match page itself is one and draws these fragments in
place (``{% match_fragment %}``, ``play.templatetags.match_fragments``).

What the templates may call: the card drawings of ``games.templatetags.cards`` (the same
remembered functions the Django tags use), ``url`` (``reverse`` with positional arguments) and
Django's ``gettext`` as ``_``. The environment is Django's own backend (``TEMPLATES`` in the
settings), so templates reload in development and ``makemessages`` reads their ``_("…")`` strings
like any template's. Autoescaping is on, and a translation is escaped like any other text, as
Django's ``{% translate %}`` does.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, ngettext
from jinja2 import Environment

from games.engine.cards import SUITS
from games.templatetags.cards import card, card_back, card_name, card_text


def url(name: str, *args: object) -> str:
    """``{% url name arg … %}`` for these templates."""
    return reverse(name, args=args)


def environment(**options: Any) -> Environment:
    """Django's Jinja2 backend calls this with the ``TEMPLATES`` options (autoescape, loader…)."""
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(gettext, ngettext, newstyle=False)  # type: ignore[attr-defined]
    env.globals.update(
        card=card, card_back=card_back, card_name=card_name, card_text=card_text, url=url, SUITS=SUITS
    )
    return env
