"""Tables and seats, and the matches dealt at them: open a table, take or leave a seat, fill it
with bots, deal, abort before the first move, play again.

A table operation locks the table row alone; a match operation locks the match row first
(``turn.match_lock``) and the table after it. A table that fills deals its match in the same
transaction; every change tells the table page and the lobby after the commit.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.services import bot_accounts
from games import bots
from games.engine import Rules, new_game
from games.live import broadcast
from games.live.services import turn
from games.live.services.errors import GameError, NotYourSeat, TableError, validate_rated_rules
from games.models import Match, MatchPlayer, Seat, Table


def new_seed() -> str:
    """A fresh secret seed for a deal (tests replace this to get a chosen deal)."""
    return secrets.token_hex(16)


def table_create(
    *,
    creator: User,
    rules: Rules,
    rated: bool = False,
    turn_seconds: int = 30,
    private: bool = False,
    sit: bool = True,
    throw_in_seconds: int = turn.DEFAULT_THROW_IN_SECONDS,
) -> Table:
    """Open a table; the creator takes seat 0 unless ``sit`` is false (a table to watch bots).

    A rated table must play the options of a rating pool and seat its creator."""
    if rated:
        validate_rated_rules(rules)
        if not sit:
            raise TableError(_("The creator of a rated table sits at it."))
    if turn_seconds < turn.MIN_TURN_SECONDS:
        raise TableError(_("The turn timer must be at least 5 seconds."))
    if not turn.MIN_THROW_IN_SECONDS <= throw_in_seconds <= turn.MAX_THROW_IN_SECONDS:
        raise TableError(_("The throw-in window must be between 2 and 30 seconds."))
    with transaction.atomic():
        table = Table.objects.create(
            creator=creator,
            rules=rules.to_dict(),
            rated=rated,
            turn_seconds=turn_seconds,
            throw_in_seconds=throw_in_seconds,
            private=private,
        )
        if sit:
            Seat.objects.create(table=table, position=0, user=creator)
        broadcast.table_changed(table)
    return table


def table_join(
    *, table_id: int, user: User, position: int | None = None, invite_token: str | None = None
) -> Seat:
    """Take a seat (the lowest free one unless ``position``); a private table needs its token.

    When this fills the table, the match starts in the same transaction."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.private and invite_token != table.invite_token and table.creator_id != user.pk:
            raise TableError(_("This table is private: you need its invite link."))
        seats = list(table.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise TableError(_("You already sit at this table."))
        free = _free_positions(table, seats)
        if not free or table.status != Table.Status.OPEN:
            raise TableError(_("This table has no free seat."))
        if position is None:
            position = free[0]
        elif position not in free:
            raise TableError(_("This seat is taken."))
        seat = Seat.objects.create(table=table, position=position, user=user)
        if len(free) == 1:
            _deal(table)
        broadcast.table_changed(table)
    return seat


def seat_leave(*, table_id: int, user: User) -> None:
    """Leave a seat while no match is being played (resign first); a table that no human sits at
    any more closes."""
    with transaction.atomic():
        table = _lock_table(table_id)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise TableError(_("You do not sit at this table."))
        if table.matches.filter(status=Match.Status.ACTIVE).exists():
            raise TableError(_("A game is being played: resign to leave it."))
        seat.delete()
        if not table.seats.filter(user__is_bot=False).exists():
            table.status = Table.Status.CLOSED
        else:
            table.status = Table.Status.OPEN
        table.save(update_fields=["status"])
        broadcast.table_changed(table)


def seats_fill_with_bots(*, table_id: int, user: User, level: str) -> list[Seat]:
    """Seat bots of ``level`` on every free seat (asked by the creator or a seated player);
    the table is then full and the match starts."""
    if level not in bots.LEVELS:
        raise TableError(_("There is no bot of that level."))
    with transaction.atomic():
        table = _lock_table(table_id)
        seats = list(table.seats.all())
        if table.creator_id != user.pk and all(s.user_id != user.pk for s in seats):
            raise TableError(_("Only the table's creator or its players may invite bots."))
        free = _free_positions(table, seats)
        if not free or table.status != Table.Status.OPEN:
            raise TableError(_("This table has no free seat."))
        seated = {s.user_id for s in seats}
        bot_users = bot_accounts(level=User.BotLevel(level), count=len(free), exclude=seated)
        created = [
            Seat.objects.create(table=table, position=pos, user=bot)
            for pos, bot in zip(free, bot_users, strict=True)
        ]
        _deal(table)
        broadcast.table_changed(table)
    return created


def match_start(*, table_id: int) -> Match:
    """Deal a new match at a full table that is not playing one (the previous fool deals)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        match = _deal(table)
        broadcast.table_changed(table)
    return match


def match_abort(*, match_id: int, user: User) -> None:
    """Abort a match before its first action (any of its human players may)."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        turn.player_in_play(loaded, user)
        match = loaded.match
        if match.last_seq:
            raise GameError(_("The game has begun: it can no longer be aborted."))
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        match.deadline_at = None
        match.version += 1
        match.save(update_fields=["status", "finished_at", "deadline_at", "version"])
        broadcast.match_changed(match)
        broadcast.table_changed(match.table)


def play_again(*, match_id: int, user: User) -> Match | None:
    """Agree to a new match at the same table after this one ended; returns the new match once
    every human seated at the table agreed (bots always do), else ``None``. At a table of bots
    only, its creator deals the next match."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        match = loaded.match
        if match.is_active:
            raise GameError(_("This game is still being played."))
        player = loaded.player_of(user)
        table = _lock_table(match.table_id)
        humans = set(table.seats.filter(user__is_bot=False).values_list("user_id", flat=True))
        if player is None and not (table.creator_id == user.pk and not humans):
            raise NotYourSeat()
        # Asked of the database under the table's lock, not of ``loaded.next_match_id``: a
        # "play again" that waited for the match's lock may have been overtaken by one that dealt.
        if table.matches.filter(number__gt=match.number).exists():
            raise GameError(_("A newer game has already been dealt at this table."))
        if player is not None:
            player.wants_again = True
            player.save(update_fields=["wants_again"])
        agreed = {p.user_id for p in loaded.players if p.wants_again}
        new_match = None
        if table.seats.count() == table.players and humans <= agreed:
            new_match = _deal(table)
        match.version += 1
        match.save(update_fields=["version"])
        broadcast.match_changed(match)
        broadcast.table_changed(table)
    return new_match


# --- internals --------------------------------------------------------------------------------


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError(_("There is no such table.")) from None


def _free_positions(table: Table, seats: Iterable[Seat]) -> list[int]:
    taken = {s.position for s in seats}
    return [p for p in range(table.players) if p not in taken]


def _deal(table: Table) -> Match:
    """Deal a match at the locked ``table`` (full, no match in play) and arm its turn."""
    seats = list(table.seats.select_related("user").order_by("position"))
    if len(seats) != table.players:
        raise TableError(_("The table is not full yet."))
    if table.matches.filter(status=Match.Status.ACTIVE).exists():
        raise TableError(_("A game is already being played at this table."))
    previous = table.matches.order_by("-number").first()
    rules = Rules.from_dict(table.rules)
    seed = new_seed()
    state = new_game(rules, seed=seed, dealer=_next_dealer(previous, rules))
    match = Match.objects.create(
        table=table,
        number=(previous.number + 1) if previous else 1,
        rules=table.rules,
        seed=seed,
        dealer=state.dealer,
        snapshot=state.to_json(),
        deadline_at=timezone.now() + timedelta(seconds=table.turn_seconds),
    )
    players = MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, seat=s.position, user=s.user) for s in seats
    )
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    turn.arm(match, state, players)
    match.save(update_fields=["timer_at"])
    return match


def _next_dealer(previous: Match | None, rules: Rules) -> int | None:
    """``docs/rules.md`` §1: the previous game's fool deals; after a draw, a team game or an
    aborted game the deal passes to the left; the first game's dealer comes from the seed (None)."""
    if previous is None:
        return None
    fool = (previous.result or {}).get("fool")
    if previous.status == Match.Status.FINISHED and fool is not None and not rules.teams:
        return int(fool)
    return (previous.dealer + 1) % rules.players
