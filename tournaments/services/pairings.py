"""A pairing's rows and its table: create one and seat its players, write a two-player result,
record a table's one game, and leave the table when it is over.

Each pairing is a private ``games.Table`` with the tournament's rules and timer: its players are
seated through ``play.services`` and its first match starts when the last one sits down,
so a tournament game is an ordinary live game. Lock order: the tournament row (the caller holds
it), then a pairing row, then (inside ``play.services``) a match row and its table; live
play never locks a tournament, so there is no cycle.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

from django.utils import timezone

from accounts.models import User
from games.engine import Rules
from games.models import Match
from play import services as games
from tournaments.models import Pairing, PairingPlayer, Round, Tournament

logger = logging.getLogger(__name__)


def pairing_create(
    tournament: Tournament, round_: Round, board: int, players: Sequence[int], *, slot: str = ""
) -> Pairing:
    """Create a pairing and seat its players at a new private table (the first game starts
    when the last one sits, unless the tournament is paused: then ``tournament_resume`` deals
    it)."""
    pairing = Pairing.objects.create(tournament=tournament, round=round_, board=board, slot=slot)
    users = {u.pk: u for u in User.objects.filter(pk__in=players)}
    PairingPlayer.objects.bulk_create(
        PairingPlayer(pairing=pairing, position=i, user_id=p) for i, p in enumerate(players)
    )
    rules = dataclasses.replace(Rules.from_dict(tournament.rules), players=len(players))
    first = users[players[0]]
    # The club's bots play no rated game (``docs/rules.md`` §7): a game with one is casual.
    club_bot = any(user.is_bot and not user.is_program for user in users.values())
    table = games.table_create(
        creator=first,
        rules=rules,
        rated=tournament.rated and not club_bot,
        turn_seconds=tournament.turn_seconds,
        private=True,
        organised=True,
        managed=True,
    )
    pairing.table = table
    pairing.save(update_fields=["table"])
    for player in players[1:]:
        games.table_join(table_id=table.pk, user=users[player], invite_token=table.invite_token)
    return pairing


def pairing_decide(pairing: Pairing, players: Sequence[int], score: float, *, forfeit: bool) -> None:
    """Write a two-player pairing's result (``score`` of ``players[0]``)."""
    winner = {1.0: players[0], 0.0: players[1]}.get(score)
    loser = {1.0: players[1], 0.0: players[0]}.get(score)
    pairing.status = Pairing.Status.DONE
    pairing.score = score
    pairing.winner_id = winner
    pairing.fool_id = None if forfeit else loser
    pairing.forfeit = forfeit
    pairing.finished_at = pairing.finished_at or timezone.now()
    pairing.save()
    for row in pairing.players.all():
        row.place = None if winner is None else (1 if row.user_id == winner else 2)
        row.save(update_fields=["place"])


def pairing_record_game(pairing: Pairing, match: Match) -> None:
    """A multi-table pairing ends with its one game: places and the fool from the result."""
    result = match.result or {}
    seat_user = {p.seat: p.user_id for p in match.players.all()}
    place_of = {seat_user[s]: i + 1 for i, group in enumerate(result.get("places", [])) for s in group}
    for row in pairing.players.all():
        row.place = place_of.get(row.user_id)
        row.save(update_fields=["place"])
    fool = result.get("fool")
    pairing.fool_id = seat_user.get(fool) if fool is not None else None
    pairing.status = Pairing.Status.DONE
    pairing.finished_at = timezone.now()
    pairing.save()


def pairing_table_leave(pairing: Pairing) -> None:
    """Everyone leaves the table of an arena pairing once its game is over, which closes it, so
    no further game ("play again") is dealt there; one being played is left when it ends."""
    if pairing.table_id is None:
        return
    for user in User.objects.filter(seats__table_id=pairing.table_id):
        try:
            games.seat_leave(table_id=pairing.table_id, user=user)
        except games.GameError:
            logger.info("table %s: %s stays seated while a game is played", pairing.table_id, user.pk)
