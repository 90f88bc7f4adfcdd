"""The end of a tournament, whatever its format: the places, the winner, and every table left.

Called when the last round or the bracket is decided (``progress``), when an arena's time is up
and its last game recorded (``arena``), and when the organiser ends the event (``running``)."""

from __future__ import annotations

from django.utils import timezone

from games.models import Table
from tournaments import selectors
from tournaments.formats.elimination import champion, final_ranking
from tournaments.formats.multitable import ranking_after_final
from tournaments.models import Pairing, Tournament
from tournaments.services.pairings import pairing_table_leave


def tournament_end(tournament: Tournament) -> None:
    """Write places and the winner, and close the tournament."""
    places = _final_places(tournament)
    for entry in tournament.entries.filter(seed__isnull=False):
        entry.place = places.get(entry.player_id)
        entry.save(update_fields=["place"])
    winners = [player for player, place in places.items() if place == 1]
    tournament.winner_id = winners[0] if len(winners) == 1 else None
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    # Every table of the tournament is left, which closes it: none stays "playing" afterwards.
    for pairing in tournament.pairings.filter(table__isnull=False).exclude(table__status=Table.Status.CLOSED):
        pairing_table_leave(pairing)


def _final_places(tournament: Tournament) -> dict[int, int]:
    if tournament.is_arena:
        return {line.player: line.rank for line in selectors.arena_leaderboard(tournament)}
    if tournament.is_elimination:
        plan = selectors.bracket_plan(tournament)
        assert plan is not None
        winners, out = selectors.bracket_inputs(tournament)
        if champion(plan, winners, out) is None:
            return {}
        return final_ranking(plan, winners, out)
    standings = selectors.standings(tournament)
    final = tournament.round_set.filter(final=True).first()
    if final is not None and not final.pairings.filter(status=Pairing.Status.PLAYING).exists():
        table = selectors.table_results(tournament, rounds=[final])
        if table:
            order = ranking_after_final([s.player for s in standings], table[0])
            return {player: place for place, player in enumerate(order, start=1)}
    return {s.player: s.rank for s in standings}
