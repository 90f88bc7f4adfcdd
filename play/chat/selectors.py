"""Reads of the table chat: who speaks in which room, a room's lines, a report's surroundings."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.models import Match, Table
from play import selectors as live_selectors
from play.access import may_chat, may_watch
from play.models import ChatLine, ChatReport

#: How many lines a room sends a (re)connecting socket (the latest ones).
BACKLOG = 100
#: How many lines on each side of a reported line the staff's queue shows.
REPORT_CONTEXT = 6


@dataclass(frozen=True)
class Seating:
    """Where a viewer stands at a match's chat: its room, the seat if a player, and whether it
    may say anything (anonymous readers only read the spectators' room)."""

    match_id: int
    room: str
    seat: int | None
    may_speak: bool
    tournament: bool


def seating(match_id: int, user: User | AnonymousUser) -> Seating | None:
    """``None`` when there is no such match or ``user`` may not watch it; a human player of the
    match is in the players' room, everyone else in the spectators'."""
    loaded = live_selectors.match_load(match_id=match_id, moves_after=None)
    if loaded is None or not may_watch(loaded.match, loaded.players, user):
        return None
    player = loaded.player_of(user)
    room = ChatLine.Room.PLAYERS if player is not None else ChatLine.Room.SPECTATORS
    return Seating(
        match_id=match_id,
        room=room,
        seat=player.seat if player is not None else None,
        may_speak=may_chat(user),
        tournament=is_tournament_table(loaded.match.table),
    )


def is_tournament_table(table: Table) -> bool:
    """Whether the table is a tournament's (only quick phrases are said there, as on Lichess)."""
    return live_selectors.is_tournament_table(table.pk)


def room_lines(match_id: int, room: str, *, limit: int = BACKLOG) -> list[ChatLine]:
    """The latest ``limit`` lines of a room, oldest first, with their authors."""
    rows = ChatLine.objects.filter(match_id=match_id, room=room).select_related("author").order_by("-pk")
    return list(reversed(rows[:limit]))


def line_get(line_id: int) -> ChatLine | None:
    return ChatLine.objects.select_related("author").filter(pk=line_id).first()


def match_lines(match: Match) -> list[ChatLine]:
    """Every line of a match, both rooms, in the order they were said (replay and export)."""
    return list(match.chat_lines.select_related("author").order_by("pk"))


def report_context(report: ChatReport, *, around: int = REPORT_CONTEXT) -> list[ChatLine]:
    """The reported line with ``around`` lines of its room on each side (the staff's queue)."""
    line = report.line
    same_room = ChatLine.objects.filter(match_id=line.match_id, room=line.room).select_related("author")
    before = list(same_room.filter(pk__lt=line.pk).order_by("-pk")[:around])
    after = list(same_room.filter(pk__gt=line.pk).order_by("pk")[:around])
    return [*reversed(before), line, *after]
