"""Reads of live play for pages, sockets and commands (services write, selectors read).

Nothing here returns the seed or the snapshot to a caller that renders: views and consumers build
a viewer's context from ``match_state(match)`` through the presenter, which asks the engine for
that viewer's ``View`` only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Prefetch, QuerySet
from django.db.transaction import TransactionManagementError

from accounts.models import User
from games.engine import GameRecord, GameState, Rules
from games.models import Match, MatchPlayer, Move, Seat, Table


def open_tables() -> QuerySet[Table]:
    """Public tables waiting for players, newest first, with their seats and ``seated`` count."""
    return (
        Table.objects.filter(status=Table.Status.OPEN, private=False)
        .select_related("creator")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .annotate(seated=Count("seats"))
    )


def playing_tables() -> QuerySet[Table]:
    """Public tables with a match in play (for spectators: a bots-only table is watched here)."""
    return (
        Table.objects.filter(status=Table.Status.PLAYING, private=False, matches__status=Match.Status.ACTIVE)
        .select_related("creator")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .distinct()
    )


def table_get(*, table_id: int) -> Table:
    """A table with its creator and seated users (raises ``Table.DoesNotExist``)."""
    return (
        Table.objects.select_related("creator")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .get(pk=table_id)
    )


def table_by_invite(*, token: str) -> Table:
    """The table of an invite link (raises ``Table.DoesNotExist``)."""
    return Table.objects.get(invite_token=token)


def table_current_match(*, table_id: int) -> Match | None:
    """The table's latest match (active, or the last one played), or ``None`` before the first."""
    return Match.objects.filter(table_id=table_id).order_by("-number").first()


def user_tables(*, user: User) -> QuerySet[Table]:
    """Tables where ``user`` sits and that are not closed (a user may sit at several)."""
    return Table.objects.filter(seats__user=user).exclude(status=Table.Status.CLOSED)


def match_get(*, match_id: int) -> Match:
    """A match with its table and players (each with its user), ordered by seat."""
    return (
        Match.objects.select_related("table")
        .prefetch_related(Prefetch("players", queryset=MatchPlayer.objects.select_related("user")))
        .get(pk=match_id)
    )


@dataclass(frozen=True, slots=True)
class MatchRows:
    """A match as its page is drawn: the row (with its table), its players (with their users) in
    seat order and the moves of its log after some point."""

    match: Match
    players: list[MatchPlayer]
    moves: list[Move]


def match_rows(*, match_id: int, after_seq: int | None = 0, lock: bool = False) -> MatchRows | None:
    """The rows of ``match_get`` and ``match_moves(after_seq=...)`` (none with ``None``), or
    ``None`` without such a match: what every socket push reads, once per seat per move, and what
    a move reads under its lock.

    With ``lock`` the match row stays locked until the current transaction ends (``FOR UPDATE``
    where the database has it; on SQLite a writer holds the whole database from ``BEGIN``), so it
    must run in one, as ``select_for_update`` must.

    Why plain SQL (each model's ``raw()``, which still converts every field): composing these
    queries through the ORM cost a push about three times the CPU of running them
    (``manage.py bench_moves``), and a push is the most frequent read of the site."""
    if lock and connection.get_autocommit():
        raise TransactionManagementError("match_rows(lock=True) must run inside a transaction.")
    for_update = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    match = next(
        iter(Match.objects.raw(f"SELECT * FROM {_MATCH} WHERE id = %s{for_update}", [match_id])), None
    )
    if match is None:
        return None
    match.table = next(iter(Table.objects.raw(f"SELECT * FROM {_TABLE} WHERE id = %s", [match.table_id])))
    users = {
        user.pk: user
        for user in User.objects.raw(
            f"SELECT u.* FROM {_USER} u JOIN {_PLAYER} p ON p.user_id = u.id WHERE p.match_id = %s",
            [match_id],
        )
    }
    players = list(
        MatchPlayer.objects.raw(f"SELECT * FROM {_PLAYER} WHERE match_id = %s ORDER BY seat", [match_id])
    )
    for player in players:
        player.user = users[player.user_id]
    moves = []
    if after_seq is not None:
        moves = list(
            Move.objects.raw(
                f"SELECT * FROM {_MOVE} WHERE match_id = %s AND seq > %s ORDER BY seq", [match_id, after_seq]
            )
        )
    return MatchRows(match, players, moves)


_MATCH, _TABLE, _USER, _PLAYER, _MOVE = (
    model._meta.db_table for model in (Match, Table, User, MatchPlayer, Move)
)


def match_player(*, match: Match, user: User) -> MatchPlayer | None:
    """``user``'s player row in ``match``, or ``None`` for a spectator or a stranger."""
    if not user.is_authenticated:
        return None
    return match.players.filter(user=user).first()


def match_moves(*, match_id: int, after_seq: int = 0) -> QuerySet[Move]:
    """The move log in order (from ``after_seq`` on): seat, action, public events, who played."""
    return Move.objects.filter(match_id=match_id, seq__gt=after_seq).order_by("seq")


def match_state(match: Match) -> GameState:
    """The engine state of the stored snapshot (server side only: hand it to the presenter)."""
    return GameState.from_json(match.snapshot)


def match_record(match: Match) -> GameRecord:
    """The match as an engine record (rules, seed, dealer and the logged actions)."""
    actions = [(move.seat, move.action) for move in match_moves(match_id=match.pk)]
    return GameRecord(Rules.from_dict(match.rules), match.seed, match.dealer, actions)


def match_replayed_snapshot(match: Match) -> dict[str, object]:
    """The snapshot rebuilt from the move log alone (equal to ``match.snapshot``)."""
    return match_record(match).replay().to_json()


def active_matches() -> QuerySet[Match]:
    """Matches still in play (for re-arming their deadlines at start-up)."""
    return Match.objects.filter(status=Match.Status.ACTIVE).select_related("table")


def user_active_matches(*, user: User) -> QuerySet[Match]:
    """Matches ``user`` plays in that are still running."""
    return Match.objects.filter(players__user=user, status=Match.Status.ACTIVE).select_related("table")
