"""Reads of live play for pages, sockets and commands (services write, selectors read).

Nothing here returns the seed or the snapshot to a caller that renders: views and consumers hand
the ``LoadedMatch`` of ``match_load`` to the presenter, which asks its engine state for one
viewer's ``View`` only.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from django.db.models import Count, Model, Prefetch, QuerySet
from django.db.models.base import ModelState
from django.db.transaction import TransactionManagementError
from django.urls import reverse

from accounts.models import User
from durak_site.db import default_connection, prepared_cursor
from games.engine import GameRecord, Rules
from games.models import Match, MatchPlayer, Move, Seat, SeedContribution, Table
from play import ratings
from play.loaded import LoadedMatch


def open_tables() -> QuerySet[Table]:
    """Public tables waiting for players, newest first, with their seats and ``seated`` count."""
    return (
        Table.objects.filter(status=Table.Status.OPEN, private=False)
        .select_related("creator")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .annotate(seated=Count("seats"))
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


def table_landing(*, table_id: int) -> str:
    """Where a player seated at a full table goes: its match in play, or the table page while the
    deal waits for the players' values (the page follows the deal when it comes)."""
    match = Match.objects.filter(table_id=table_id, status=Match.Status.ACTIVE).only("pk").first()
    if match is not None:
        return reverse("games:match", args=[match.pk])
    return reverse("games:table", args=[table_id])


def seed_value_sent(*, commitment: str, user_id: int) -> bool:
    """Whether the user sent a value for the deal of ``commitment`` (never the value itself)."""
    return SeedContribution.objects.filter(commitment=commitment, user_id=user_id).exists()


def plays_in(*, match_id: int, user_id: int) -> bool:
    """Whether the user holds a seat in the match: a stranger's move is told there is no such game,
    not whether it is over."""
    return MatchPlayer.objects.filter(match_id=match_id, user_id=user_id).exists()


def user_tables(*, user: User) -> QuerySet[Table]:
    """Tables where ``user`` sits and that are not closed (a user may sit at several)."""
    return Table.objects.filter(seats__user=user).exclude(status=Table.Status.CLOSED)


def match_load(*, match_id: int, moves_after: int | None = 0, lock: bool = False) -> LoadedMatch | None:
    """The match as live play reads it (``play.loaded``), or ``None`` without such a match:
    the row with its table, the players with their users and the log lines after
    ``moves_after`` (the whole log from 0; none are read with ``None``, and the result then
    carries the lines after the match's last one, that is none) and, for a match that is over,
    the match dealt after it at its table. What the match page, every socket push (once per seat
    per move) and the POST fallback read.

    ``lock`` is for ``services.turn.match_lock`` alone, the one way a service locks a match: the
    row stays locked until the current transaction ends (``FOR UPDATE`` where the database has it;
    on SQLite a writer holds the whole database from ``BEGIN``), so it must run in one, as
    ``select_for_update`` must.

    Why plain SQL, in one statement for a push (the match with its table, its players with their
    users and the new log lines, which ride on the first player's rows) and two for the whole log
    (the lines in a second: hundreds of rows of their own): composing these queries through the
    ORM cost a push about three times the CPU of running them (``manage.py bench_moves``), a push
    is the most frequent read of the site, and every statement is a round trip on the path of a
    move to the other seats, with its own cost on both sides (about a tenth of a millisecond each
    here, more than sending the match's columns again with each player or line: a snapshot is
    about 1.2 kB). The next match is one more, for a match that is over only: folded into the
    first as a subquery it cost every push's read about a third more time in PostgreSQL (planning
    it), for a link few pages show."""
    conn = default_connection()
    if lock and conn.get_autocommit():
        raise TransactionManagementError("match_load(lock=True) must run inside a transaction.")
    for_update = ""
    if lock and conn.features.has_select_for_update:
        for_update = " FOR UPDATE OF m" if conn.features.has_select_for_update_of else " FOR UPDATE"
    with_lines = bool(moves_after)  # a push's few new lines, read in the same statement
    columns = (
        f"{_columns(Match, 'm')}, {_columns(Table, 't')}, {_columns(MatchPlayer, 'p')}, {_columns(User, 'u')}"
    )
    sql = (
        f" FROM {_MATCH} m JOIN {_TABLE} t ON t.id = m.table_id"
        f" LEFT JOIN {_PLAYER} p ON p.match_id = m.id LEFT JOIN {_USER} u ON u.id = p.user_id"
    )
    params = [match_id]
    if with_lines:
        columns += f", {_columns(Move, 'v')}"
        # On the first player's rows only (or the one row of a match without players).
        sql += (
            f" LEFT JOIN {_MOVE} v ON v.match_id = m.id AND v.seq > %s AND (p.id IS NULL"
            f" OR p.seat = (SELECT min(f.seat) FROM {_PLAYER} f WHERE f.match_id = m.id))"
        )
        params = [int(moves_after or 0), match_id]
    order = "p.seat, v.seq" if with_lines else "p.seat"
    found = _joined(
        f"SELECT {columns}{sql} WHERE m.id = %s ORDER BY {order}{for_update}",
        params,
        (Match, Table, MatchPlayer, User, Move) if with_lines else (Match, Table, MatchPlayer, User),
    )
    if not found:
        return None
    match, table = found[0][:2]
    match.table = table
    next_match_id = None if match.is_active else _next_match_id(match)
    players: list[MatchPlayer] = []
    lines: list[Move] = []
    for row in found:
        player = row[2]
        if player is not None and (not players or players[-1] is not player):
            player.user = row[3]
            players.append(player)
        if with_lines and row[4] is not None:
            lines.append(row[4])
    # A finished rated match's page shows its rating changes (one more statement, after the end).
    # One more when it has none: it may not count (``ratings.farming``).
    changes = ratings.changes(match_id) if match.status == Match.Status.FINISHED and table.rated else {}
    unrated = (
        ratings.unrated(match_id)
        if match.status == Match.Status.FINISHED and table.rated and not changes
        else ""
    )
    if moves_after is None:
        return LoadedMatch(match, players, [], int(match.last_seq), next_match_id, changes, unrated)
    if not with_lines:
        lines = _moves(match_id, moves_after)
    return LoadedMatch(match, players, lines, moves_after, next_match_id, changes, unrated)


def with_moves_after(loaded: LoadedMatch, *, after_seq: int) -> LoadedMatch:
    """``loaded`` carrying the log lines after ``after_seq``: itself when it carries exactly
    those, the lines it carries cut when it carries more, else read (one statement)."""
    if loaded.moves_after == after_seq:
        return loaded
    if loaded.moves_after < after_seq:
        moves = [move for move in loaded.moves if move.seq > after_seq]
    else:
        moves = _moves(loaded.match.pk, after_seq)
    return replace(loaded, moves=moves, moves_after=after_seq)


def _next_match_id(match: Match) -> int | None:
    """The id of the match dealt after ``match`` at its table (by "play again"), if any."""
    with prepared_cursor() as cursor:
        cursor.execute(
            f"SELECT n.id FROM {_MATCH} n WHERE n.table_id = %s AND n.number > %s"
            " ORDER BY n.number DESC LIMIT 1",
            [match.table_id, match.number],
        )
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def _moves(match_id: int, after_seq: int) -> list[Move]:
    return [
        move
        for (move,) in _joined(
            f"SELECT {_columns(Move, 'v')} FROM {_MOVE} v"
            " WHERE v.match_id = %s AND v.seq > %s ORDER BY v.seq",
            [match_id, after_seq],
            (Move,),
        )
    ]


_MATCH, _TABLE, _USER, _PLAYER, _MOVE = (
    model._meta.db_table for model in (Match, Table, User, MatchPlayer, Move)
)


@cache
def _columns(model: type[Model], alias: str) -> str:
    """The model's concrete columns under ``alias``, in field order (what ``_joined`` cuts)."""
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


def _joined(sql: str, params: list[int], models: tuple[type[Model], ...]) -> list[tuple[Any, ...]]:
    """The rows of a query over ``models`` (each one's ``_columns`` in turn: a join, or one
    model), as instances: what ``select_related`` builds, minus composing the query. Every value
    goes through the converters the ORM applies (``from_db_value`` of a JSON field, SQLite's
    dates...).

    A model whose primary key in a row is the one it had in the row before (the match of every row
    of a join to its players, a player joined to several lines) is that row's instance again, made
    once; a model whose primary key is null in a row (the missing side of an outer join) is
    ``None`` there."""
    conn = default_connection()
    readers = [_reader(model, conn.vendor) for model in models]
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    instances: list[tuple[Any, ...]] = []
    before: tuple[Any, ...] = ()
    for row in rows:
        start, made = 0, list[Any]()
        for position, (model, names, pk_index, converters) in enumerate(readers):
            pk = row[start + pk_index]
            if pk is None:
                made.append(None)
            elif before and before[position] is not None and before[position].pk == pk:
                made.append(before[position])
            else:
                values = list(row[start : start + len(names)])
                for index, column, functions in converters:
                    for function in functions:
                        values[index] = function(values[index], column, conn)
                made.append(_instance(model, names, values, conn.alias))
            start += len(names)
        before = tuple(made)
        instances.append(before)
    return instances


def _instance(model: type[Model], names: list[str], values: list[Any], alias: str) -> Model:
    """``model.from_db(alias, names, values)`` for a row of all its concrete fields, without
    ``Model.__init__``: that sets each field through ``setattr`` (a descriptor's for a foreign
    key, which has nothing cached to clear on a new instance) and sends ``pre_init`` and
    ``post_init``, and was about a quarter of a match's read (six instances). Equal to what
    ``from_db`` makes only while these models have no ``__init__`` or ``from_db`` of their own,
    no field whose descriptor sets anything and no receiver of those signals:
    ``tests/games/test_push_reads.py`` holds them to it."""
    instance = model.__new__(model)
    state = ModelState()
    state.adding = False
    state.db = alias
    instance.__dict__.update(zip(names, values, strict=True))
    instance._state = state
    return instance


#: The model, its field names, where its primary key is among them and, per field that has any,
#: the converters the ORM applies to its column (``_reader``).
_Reader = tuple[type[Model], list[str], int, list[tuple[int, Any, list[Any]]]]


@cache
def _reader(model: type[Model], vendor: str) -> _Reader:
    """Made once per model and vendor, from the calling thread's connection. The converters
    depend on the vendor and the settings only, and each call hands them the connection in use, so
    the connections of other threads may share them."""
    conn = default_connection()
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        functions = conn.ops.get_db_converters(column) + column.get_db_converters(conn)
        if functions:
            converters.append((index, column, functions))
    pk_index = next(index for index, field in enumerate(fields) if field.primary_key)
    return model, [field.attname for field in fields], pk_index, converters


def match_moves(*, match_id: int, after_seq: int = 0) -> QuerySet[Move]:
    """The move log in order (from ``after_seq`` on): seat, action, public events, who played."""
    return Move.objects.filter(match_id=match_id, seq__gt=after_seq).order_by("seq")


def match_record(match: Match) -> GameRecord:
    """The match as an engine record (rules, seed, dealer and the logged actions)."""
    actions = [(move.seat, move.action) for move in match_moves(match_id=match.pk)]
    return GameRecord(Rules.from_dict(match.rules), match.seed, match.dealer, actions)


def active_matches() -> QuerySet[Match]:
    """Matches still in play (for re-arming their deadlines at start-up)."""
    return Match.objects.filter(status=Match.Status.ACTIVE).select_related("table")


def user_active_matches(*, user: User) -> QuerySet[Match]:
    """Matches ``user`` plays in that are still running."""
    return Match.objects.filter(players__user=user, status=Match.Status.ACTIVE).select_related("table")


def is_tournament_table(table_id: int) -> bool:
    """Whether the table is a tournament's: asked through the reverse relation
    ``tournament_pairing`` that ``tournaments`` declares on the table, by name (live play never
    imports the tournaments above it). The table chat takes quick phrases only there, and a rated
    tournament's tables leave the bar from rated play to the tournament's registration."""
    return Table.objects.filter(pk=table_id, tournament_pairing__isnull=False).exists()
