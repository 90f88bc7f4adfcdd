"""News from live play about a tournament's games (the bodies of ``tournaments.tasks``).

When a match of a pairing ends, ``tournaments.receivers`` hears ``games.signals.match_finished``
and enqueues ``tournaments.tasks.match_finished`` after the commit, which calls
``match_finished`` here; a table dealt after its wait for the players' values
(``games.signals.match_dealt``) comes to ``match_dealt``.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Pairing, Tournament
from tournaments.services.locking import tournament_changed, tournament_lock
from tournaments.services.pairings import pairing_table_leave
from tournaments.services.progress import pairing_continue, tournament_advance


def match_finished(*, match_id: int) -> bool:
    """Record a finished match of a pairing and move the tournament on (the Celery task's body).

    Returns False, doing nothing, when the match is not a tournament's, its pairing is already
    decided, the tournament is not live, or this match was already recorded."""
    found = Pairing.objects.filter(table__matches=match_id).values_list("pk", "tournament_id").first()
    if found is None:
        return False
    pairing_id, tournament_id = found
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        pairing = Pairing.objects.select_for_update().get(pk=pairing_id)
        if pairing.is_done and tournament.is_arena:
            pairing_table_leave(pairing)  # a game someone dealt at it afterwards ("play again") ended
        if pairing.is_done or not tournament.is_live:
            return False
        if not pairing_continue(tournament, pairing):
            return False
        if tournament.status == Tournament.Status.RUNNING:
            tournament_advance(tournament)
        tournament_changed(tournament)
    return True


def match_dealt(*, match_id: int) -> bool:
    """A game was dealt at a tournament's table after its wait for the players' values (the body
    of ``tournaments.tasks.match_dealt``): the tournament's page shows it with a new version, and
    an arena player's page goes to it. Returns False when the match is not a tournament's."""
    tournament_id = (
        Pairing.objects.filter(table__matches=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return False
    with transaction.atomic():
        tournament_changed(tournament_lock(tournament_id))
    return True
