"""Reads of the analysis board: a finished match's step as a position, and a user's evaluation."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.models import Match
from history.replay import replay_step, stored_moves
from play.access import may_watch

from .models import Evaluation


def finished_step_position(*, match_id: int, step: int, user: User | AnonymousUser) -> str | None:
    """The whole position at ``step`` of a finished match this user may watch (its replay shows
    every card anyway), or None: a match in play, or one the user may not see, gives nothing."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).select_related("table").first()
    if match is None or not may_watch(match, list(match.players.all()), user):
        return None
    return replay_step(match, stored_moves(match), step).position


def evaluation_of(*, evaluation_id: int, user: User) -> Evaluation | None:
    """The evaluation if it is this user's own."""
    return Evaluation.objects.filter(pk=evaluation_id, user=user).first()
