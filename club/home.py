"""The home page of a signed-in player: what they are in the middle of, so the first screen is
their games rather than the visitor's introduction.

Their live games (with the opponents' names), the tables where they wait for players, and the
tournaments they are entered in that are not over; the quick "play a bot" form comes with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from accounts.models import User
from games.models import MatchPlayer, Seat, Table
from games.words import variant_name
from play import selectors
from tournaments.models import Entry
from tournaments.selectors import player_current


@dataclass(frozen=True, slots=True)
class LiveGame:
    """A match the player is in that is still being played."""

    match_id: int
    variant: str
    opponents: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WaitingTable:
    """A table the player sits at that waits for players."""

    table_id: int
    variant: str
    seated: int
    players: int


def live_games(user: User) -> list[LiveGame]:
    players = MatchPlayer.objects.select_related("user").order_by("seat")
    matches = selectors.user_active_matches(user=user).prefetch_related(Prefetch("players", players))
    return [
        LiveGame(
            match.pk,
            variant_name(match.rules.get("variant", "")),
            tuple(str(p.user.public_name) for p in match.players.all() if p.user_id != user.pk),
        )
        for match in matches.order_by("-pk")
    ]


def waiting_tables(user: User) -> list[WaitingTable]:
    tables = (
        selectors.user_tables(user=user)
        .filter(status=Table.Status.OPEN)
        .prefetch_related(Prefetch("seats", Seat.objects.only("pk", "table_id")))
        .order_by("-pk")
    )
    return [WaitingTable(t.pk, variant_name(t.variant), len(t.seats.all()), t.players) for t in tables]


def current_tournaments(user: User) -> list[Entry]:
    return list(player_current(user=user))
