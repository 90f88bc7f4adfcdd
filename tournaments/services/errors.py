"""The refusals of tournaments: a refused request raises ``TournamentError`` with a translated
``message``, and nothing changed."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from durak_site.errors import Refused


class TournamentError(Refused):
    """A refused tournament request (see ``durak_site.errors.Refused``)."""


class NotAllowed(TournamentError):
    """Only the organiser and staff run a tournament."""

    default_message = _("Only the organiser can do that.")
