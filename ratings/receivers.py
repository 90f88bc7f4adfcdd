"""Ratings listen to the end of every match (``games.signals.match_finished``) and rate the rated
ones once the result is committed (``ratings.tasks.rate_match``, idempotent)."""

from __future__ import annotations

from typing import Any

from durak_site.tasks import enqueue_on_commit
from games.models import Match
from games.signals import match_finished
from ratings.tasks import rate_match


def rate_when_finished(sender: type[Match], *, match: Match, **kwargs: Any) -> None:
    """A rated match ended: rate it after the commit."""
    if match.table.rated:
        enqueue_on_commit(rate_match, match.pk)


def connect() -> None:
    """Called from ``RatingsConfig.ready``."""
    match_finished.connect(rate_when_finished, sender=Match, dispatch_uid="ratings.rate_when_finished")
