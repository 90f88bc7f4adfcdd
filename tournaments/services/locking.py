"""The tournament row's lock and its version: every change of a tournament starts with
``tournament_lock`` and ends with ``tournament_changed``.

Exactly once: every change happens under ``select_for_update`` on the tournament row, so two
matches that end at the same moment are recorded one after the other. The version goes up by one
per change, and after the commit the group ``tournament_group(id)`` = ``"tournament-<id>"`` gets
``{"type": "tournament.changed", "tournament": id, "version": v}``; each socket re-renders its
own viewer's page fragment (``tournaments.consumers``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from durak_site.broadcast import group_send_on_commit
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.services.errors import NotAllowed, TournamentError


def tournament_group(tournament_id: int) -> str:
    """The channel-layer group of a tournament page's sockets."""
    return f"tournament-{tournament_id}"


def tournament_lock(tournament_id: int, user: User | None = None) -> Tournament:
    """The tournament row, locked; with ``user``, refused unless they may run it."""
    try:
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError(_("There is no such tournament.")) from None
    if user is not None and not selectors.may_run(tournament, user):
        raise NotAllowed()
    return tournament


def tournament_changed(tournament: Tournament) -> None:
    """Save the tournament with a new version and tell its page after the commit."""
    tournament.version += 1
    tournament.save()
    event = {"type": "tournament.changed", "tournament": tournament.pk, "version": tournament.version}
    group_send_on_commit(tournament_group(tournament.pk), event)
