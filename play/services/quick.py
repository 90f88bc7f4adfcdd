"""A game against bots in one step: the home page's and the lobby's "Play a bot" button.

The same table a host could open with the full form (casual, public, the variant's standard
options), its other seats filled with bots at once, so the table is full: it deals when the
player's open page sent its value for the deal (``tables._deal_when_ready``), and the player lands
on the match, or on the table page until then.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games.engine import Rules
from games.models import Table
from play.services.tables import seats_fill_with_bots, table_create

#: The quick game's turn timer: the full form's default.
QUICK_TURN_SECONDS = 30


def bot_game_start(*, user: User, rules: Rules, level: str) -> Table:
    """Open a casual table of ``rules`` for ``user`` with bots of ``level`` on every other seat,
    and return it, dealt or dealing (nothing is kept when the level or the rules are refused)."""
    with transaction.atomic():
        table = table_create(creator=user, rules=rules, turn_seconds=QUICK_TURN_SECONDS)
        seats_fill_with_bots(table_id=table.pk, user=user, level=level)
        return table
