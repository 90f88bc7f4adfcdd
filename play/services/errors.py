"""The refusals of live play: every service raises one of these and then has changed nothing.

Each carries a translated ``message`` for the sender alone (``durak_site.errors.Refused``); views
turn it into a message on the page, consumers into an error fragment.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from durak_site.errors import Refused
from games.engine import Rules
from games.pools import rated_pool

NO_SUCH_MATCH = _("There is no such game.")


class GameError(Refused):
    """A refused request of live play (see ``durak_site.errors.Refused``)."""


class IllegalMove(GameError):
    """The engine refused the action (``code`` from ``IllegalAction``) or it did not parse."""

    def __init__(self, message: Any, *, code: str = "illegal") -> None:
        super().__init__(message)
        self.code = code


class StaleVersion(GameError):
    """The client acted on an older version: someone moved first. Re-render and try again."""

    default_message = _("The table has changed in the meantime: look again and repeat your move.")


class NotYourSeat(GameError):
    """The user does not play this match, or their seat is played by the autopilot."""

    default_message = _("You do not play in this game.")


class MatchOver(GameError):
    """The match is finished or aborted."""

    default_message = _("This game is over.")


class TableError(GameError):
    """A refused table or seat operation (full, taken, already seated, wrong invite…)."""


class ValueNotAwaited(TableError):
    """A well-formed fair-deal value that no deal awaits from its sender (already sent, the deal
    made, or no longer seated): the page that sent it did nothing wrong, so its answer is no error."""


class RatedRulesError(TableError):
    """The options of a rated table are outside the rating pools."""

    default_message = _(
        "A rated table plays the variant's standard options; only the number of players and teams may change."
    )


def validate_rated_rules(rules: Rules) -> None:
    """Raise ``RatedRulesError`` unless a rated table may play ``rules``: the one check behind
    ``table_create`` and the table forms (the create-table form and the tournament form), so the
    page and the service refuse the same tables."""
    if rated_pool(rules) is None:
        raise RatedRulesError()
