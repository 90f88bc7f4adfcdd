"""The one shape of a refused request, shared by every app's services.

A service that refuses raises a ``Refused`` subclass carrying a translated ``message`` meant for
the sender alone, and changes nothing; views turn it into a message on the page and consumers into
an error fragment, never a 500. ``play.services.GameError`` and
``tournaments.services.TournamentError`` are its two families.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


class Refused(Exception):
    """A refused request; ``message`` is translated and meant for the sender only."""

    default_message: Any = _("This is not possible.")

    def __init__(self, message: Any = None) -> None:
        self.message = str(message if message is not None else self.default_message)
        super().__init__(self.message)
