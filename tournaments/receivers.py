"""Tournaments listen to the end of every match (``games.signals.match_finished``): one played at
a tournament's table moves its tournament on once the result is committed
(``tournaments.tasks.match_finished``, idempotent)."""

from __future__ import annotations

from typing import Any

from durak_site.tasks import enqueue_on_commit
from games.models import Match
from games.signals import match_finished
from tournaments import tasks


def advance_when_finished(sender: type[Match], *, match: Match, **kwargs: Any) -> None:
    """A match at a tournament's table ended: record it after the commit."""
    if getattr(match.table, "tournament_pairing", None) is not None:
        enqueue_on_commit(tasks.match_finished, match.pk)


def connect() -> None:
    """Called from ``TournamentsConfig.ready``."""
    match_finished.connect(
        advance_when_finished, sender=Match, dispatch_uid="tournaments.advance_when_finished"
    )
