"""News about a match that is over: its ratings arrived (``ratings.services.match_rate`` runs in a
Celery task after the end), so its pages redraw their result panel without a reload."""

from __future__ import annotations

from django.db import transaction

from games.models import Match
from play import broadcast


def match_refresh(*, match_id: int) -> None:
    """Count a new version of a finished match (no move, no other change) and tell its sockets,
    which then render the result panel again from the database. A running or missing match is
    left alone: its own moves redraw it."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status == Match.Status.ACTIVE:
            return
        match.version += 1
        match.save(update_fields=["version"])
        broadcast.match_changed(match)
