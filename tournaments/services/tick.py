"""Beat's periodic pass over every tournament (``tournaments.tasks.tick``): registration closed
and tournaments started at their times, a pairing pass in every arena, and any game of a running
pairing dealt whose task was lost. It is the safety net of the tasks sent on each change."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Match, Table
from tournaments.models import Pairing, Tournament
from tournaments.services.arena import arena_pass
from tournaments.services.errors import TournamentError
from tournaments.services.locking import tournament_changed, tournament_lock
from tournaments.services.organising import registration_close
from tournaments.services.progress import pairing_continue, tournament_advance
from tournaments.services.running import tournament_start


def tournaments_tick(*, now: datetime | None = None) -> int:
    """The periodic task's body: close registration at its deadline or when the check-in
    window opens, start tournaments whose time has come, run a pairing pass in every arena (and
    end those whose time is up), and deal any game of a running pairing whose task was lost.
    Returns how many tournaments it changed."""
    now = now or timezone.now()
    changed = 0
    for tournament in Tournament.objects.filter(status=Tournament.Status.REGISTRATION):
        opens = tournament.starts_at - timedelta(minutes=tournament.checkin_minutes)
        deadline = tournament.registration_deadline
        if now >= opens or (deadline is not None and now >= deadline):
            changed += _quietly(registration_close, tournament_id=tournament.pk, user=None)
    due = Tournament.objects.filter(
        status__in=(Tournament.Status.REGISTRATION, Tournament.Status.CHECK_IN), starts_at__lte=now
    )
    for pk in due.values_list("pk", flat=True):
        changed += _quietly(tournament_start, tournament_id=pk, user=None)
    arenas = Tournament.objects.filter(
        format=Tournament.Format.ARENA, status__in=(Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    )
    for pk in arenas.values_list("pk", flat=True):
        changed += arena_pass(tournament_id=pk)
    stuck = (
        Pairing.objects.filter(status=Pairing.Status.PLAYING, tournament__status=Tournament.Status.RUNNING)
        .exclude(table__matches__status=Match.Status.ACTIVE)
        .exclude(table__status=Table.Status.DEALING)  # its deal comes with its players' values
    )
    for pairing_id, tournament_id in stuck.values_list("pk", "tournament_id").distinct():
        with transaction.atomic():
            tournament = tournament_lock(tournament_id)
            pairing = Pairing.objects.select_for_update().get(pk=pairing_id)
            if pairing.is_done or tournament.status != Tournament.Status.RUNNING:
                continue
            if pairing_continue(tournament, pairing):
                tournament_advance(tournament)
                tournament_changed(tournament)
                changed += 1
    return changed


def _quietly(service: Any, **kwargs: Any) -> int:
    """Call ``service`` for the periodic task: 1 if it did it, 0 if the organiser got there
    first (the status changed between the scan and the lock)."""
    try:
        service(**kwargs)
    except TournamentError:
        return 0
    return 1
