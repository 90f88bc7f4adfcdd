"""Tables and seats, and the matches dealt at them: open a table, take or leave a seat, fill it
with bots, send a value for the next deal, deal, abort before the first move, play again.

The deal follows ``docs/rules.md`` §"Fair deals" (``games.seeding``): a table always holds the
secret server seed of its next deal, whose SHA-256 its pages show; each seated player's browser
sends a random value for that commitment (alone, or with the request that takes the seat or
agrees to play again). A table that fills while a seated player whose browser is open (a personal
socket, ``people.selectors.online_ids``) has not sent one yet waits for it in the "dealing" state,
``settings.GAMES_DEAL_WAIT_SECONDS`` at most (5: a push and one request take well under a second,
so a page that answers at all answers in time, and a value that never comes delays the deal by
this much at most): their page, wherever it is, is asked for the value
(``broadcast.deal_wanted``), and the last awaited value deals, or the deadline does
(``table_deal_due``, the task ``DEAL_DUE_TASK``; beat's sweep catches a lost one). That is how the
deals the server seats by itself (quick pairing, a challenge, a tournament's first game) get their
players' values too. The deal takes the values that came before it, in seat order, and a seat that
sent none is dealt without one (the record says so); the wait is short and bounded, so nobody can
stall a table by not sending, and the table then commits to a fresh server seed.

A table operation locks the table row alone; a match operation locks the match row first
(``turn.match_lock``) and the table after it. A table that fills deals its match in the same
transaction; every change tells the table page and the lobby after the commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Final

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.services import bot_accounts
from durak_site.tasks import enqueue_on_commit
from games import bots, seeding
from games.engine import Rules, new_game
from games.models import Match, MatchPlayer, Seat, SeedContribution, Table
from games.pools import table_kind_pool
from games.signals import again_wanted, match_dealt
from people import selectors as people_selectors
from play import broadcast, ratings
from play.access import may_sit
from play.services import limits, playban, turn
from play.services.errors import (
    GameError,
    NotYourSeat,
    TableError,
    ValueNotAwaited,
    validate_rated_rules,
)

#: The Celery task that deals a table whose wait ran out (``play.tasks.deal_due``).
DEAL_DUE_TASK: Final = "games.deal_due"


def new_seed() -> str:
    """A fresh secret server seed for a table's next deal (tests replace this to get a chosen
    deal: with no player values, the deal seed is ``seeding.deal_seed(server_seed, ["", …])``)."""
    return seeding.new_server_seed()


def table_create(
    *,
    creator: User,
    rules: Rules,
    rated: bool = False,
    turn_seconds: int = 30,
    private: bool = False,
    sit: bool = True,
    organised: bool = False,
    managed: bool = False,
    throw_in_seconds: int = turn.DEFAULT_THROW_IN_SECONDS,
) -> Table:
    """Open a table; the creator takes seat 0 unless ``sit`` is false (a table to watch bots).

    A rated table must play the options of a rating pool and seat its creator. ``organised`` is
    for a table the site arranges for its players (a tournament's, the move bench's): the limits
    on a player's own tables (``limits``) and the bar from rated play (``playban``) are not for
    it (a tournament decides who plays). A ``managed`` table is a tournament's: only the
    tournament deals there, never "play again"."""
    if rated:
        validate_rated_rules(rules)
        if not sit:
            raise TableError(_("The creator of a rated table sits at it."))
        if not organised:
            playban.check_rated_allowed(creator)
    if turn_seconds < turn.MIN_TURN_SECONDS:
        raise TableError(_("The turn timer must be at least 5 seconds."))
    if not turn.MIN_THROW_IN_SECONDS <= throw_in_seconds <= turn.MAX_THROW_IN_SECONDS:
        raise TableError(_("The throw-in window must be between 2 and 30 seconds."))
    with transaction.atomic():
        if not organised:
            limits.check_table_allowed(creator)
        table = Table.objects.create(
            creator=creator,
            rules=rules.to_dict(),
            rated=rated,
            turn_seconds=turn_seconds,
            throw_in_seconds=throw_in_seconds,
            private=private,
            organised=organised,
            managed=managed,
            host_seen_at=timezone.now(),
            server_seed=new_seed(),
        )
        if sit:
            Seat.objects.create(table=table, position=0, user=creator)
        broadcast.table_changed(table)
    return table


def table_join(
    *,
    table_id: int,
    user: User,
    position: int | None = None,
    invite_token: str | None = None,
    seed_value: str | None = None,
    seed_commitment: str | None = None,
) -> Seat:
    """Take a seat (the lowest free one unless ``position``); a private table needs its token.

    ``seed_value`` is the browser's value for the deal committed to by ``seed_commitment`` (the
    commitment the page showed): kept when the commitment is still the table's. A player barred
    from rated play (``playban``) may not sit at a rated table, nor anyone where a barred player
    sits, unless the site arranged it (``Table.organised``: a tournament seats them). When this
    fills the table, the match starts in the same transaction, or once the values came
    (``_deal_when_ready``)."""
    _check_value(seed_value)
    with transaction.atomic():
        table = _lock_table(table_id)
        if not may_sit(table, user, invite_token):
            raise TableError(_("This table is private: you need its invite link."))
        seats = list(table.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise TableError(_("You already sit at this table."))
        if table.rated and not table.organised:
            playban.check_rated_allowed(user)
            playban.check_seated_allowed(s.user_id for s in seats)
        if not table.private:  # an invitation (a private link, a tournament) is the creator's choice
            _refuse_blocked(table, seats, user)
        free = _free_positions(table, seats)
        if not free or table.status != Table.Status.OPEN:
            raise TableError(_("This table has no free seat."))
        if position is None:
            position = free[0]
        elif position not in free:
            raise TableError(_("This seat is taken."))
        seat = Seat.objects.create(table=table, position=position, user=user)
        _keep_value(table, user, seed_value, seed_commitment)
        if len(free) == 1:
            _deal_when_ready(table)
        broadcast.table_changed(table)
    return seat


def tables_close_unjoined() -> int:
    """Close every table nobody joined in time (``limits.unjoined_tables``); returns how many.
    Each is checked again under its lock, so a join that came first keeps its table, and a run
    that overlaps another closes nothing twice."""
    closed = 0
    for table_id in limits.unjoined_tables():
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None or table_id not in limits.unjoined_tables(only=table_id):
                continue
            table.seats.all().delete()
            table.status = Table.Status.CLOSED
            table.save(update_fields=["status"])
            broadcast.table_changed(table)
            closed += 1
    return closed


def tables_sweep() -> int:
    """Beat's minute of table upkeep: close the unjoined tables, deal those whose wait for values
    ran out and whose task was lost, and re-draw the lobby if a host has just gone away. Returns
    how many tables were closed."""
    closed = tables_close_unjoined()
    for table_id in Table.objects.filter(
        status=Table.Status.DEALING, deal_due_at__lte=timezone.now()
    ).values_list("pk", flat=True):
        table_deal_due(table_id=table_id)
    limits.hosts_away_announce()
    return closed


def table_deal_due(*, table_id: int) -> Match | None:
    """The wait of a dealing table ran out: deal with the values that came. Does nothing for a
    table that is not dealing or whose deadline is still ahead (the task of an earlier wait), so
    the task is harmless twice."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.status != Table.Status.DEALING:
            return None
        if table.deal_due_at is not None and table.deal_due_at > timezone.now():
            return None
        return _deal_awaited(table)


def seed_contribute(*, table_id: int, user: User, value: object, commitment: object) -> None:
    """Keep a seated player's random value for the table's next deal.

    Refused (and nothing kept) for a malformed value, a player not seated here, a commitment that
    is not the table's next deal (that deal was made: the value came too late), or a second value
    for the same deal."""
    _check_value(value)
    with transaction.atomic():
        table = _lock_table(table_id)
        if not table.seats.filter(user=user, user__is_bot=False).exists():
            raise ValueNotAwaited(_("You do not sit at this table."))
        if not table.server_seed or commitment != seeding.commitment(table.server_seed):
            raise ValueNotAwaited(_("That deal has already been made: your value came too late."))
        if SeedContribution.objects.filter(commitment=commitment, user=user).exists():
            raise ValueNotAwaited(_("You have already sent your value for this deal."))
        SeedContribution.objects.create(table=table, user=user, commitment=commitment, value=str(value))
        if table.status == Table.Status.DEALING and not _awaited(table, _seats(table)):
            _deal_awaited(table)


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
        table.deal_due_at = None  # a table that was dealing is not full any more
        table.save(update_fields=["status", "deal_due_at"])
        broadcast.table_changed(table)


def seats_fill_with_bots(*, table_id: int, user: User, level: str) -> list[Seat]:
    """Seat bots of ``level`` on every free seat (asked by the creator or a seated player);
    the table is then full and the match starts."""
    if level not in bots.LEVELS:
        raise TableError(_("There is no bot of that level."))
    with transaction.atomic():
        table = _lock_table(table_id)
        _refuse_bots_at_rated(table)
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
        _deal_when_ready(table)
        broadcast.table_changed(table)
    return created


def match_start(*, table_id: int) -> Match:
    """Deal a new match at a full table that is not playing one (the previous fool deals), now:
    a tournament's next game, whose players' finished game pages sent their values (a table that
    was waiting for values is dealt at once)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        match = _deal(table)
        broadcast.table_changed(table)
    return match


def match_abort(*, match_id: int, user: User) -> None:
    """Abort a match before its first action (any of its human players may).

    At a rated table the cards are dealt and seen, so the abort counts as a resignation and goes
    into the deal-fishing ledger (``playban``): the others play on, and the game, left too early,
    is not rated (``games.early``)."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        player = turn.player_in_play(loaded, user)
        match = loaded.match
        if match.last_seq:
            raise GameError(_("The game has begun: it can no longer be aborted."))
        if match.table.rated:
            if player.resigned:
                raise GameError(_("You have already resigned."))
            playban.quit_note(match=match, user=user, aborted=True)
            turn.forfeit(loaded, player, resigned=True)
            turn.commit(loaded)
            broadcast.table_changed(match.table)
            return
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        match.deadline_at = None
        match.version += 1
        match.save(update_fields=["status", "finished_at", "deadline_at", "version"])
        broadcast.match_changed(match)
        broadcast.table_changed(match.table)


def play_again(
    *, match_id: int, user: User, seed_value: str | None = None, seed_commitment: str | None = None
) -> Match | None:
    """Agree to a new match at the same table after this one ended; returns the new match once
    every human seated at the table agreed (bots always do), else ``None`` (also while the table
    waits for a value, ``_deal_when_ready``). At a table of bots only, its creator deals the next
    match. ``seed_value`` is kept as in ``table_join``."""
    _check_value(seed_value)
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        match = loaded.match
        if match.is_active:
            raise GameError(_("This game is still being played."))
        player = loaded.player_of(user)
        table = _lock_table(match.table_id)
        if table.managed:
            raise GameError(_("The tournament deals the games at this table."))
        humans = set(table.seats.filter(user__is_bot=False).values_list("user_id", flat=True))
        if player is None and not (table.creator_id == user.pk and not humans):
            raise NotYourSeat()
        # Asked of the database under the table's lock, not of ``loaded.next_match_id``: a
        # "play again" that waited for the match's lock may have been overtaken by one that dealt.
        if table.matches.filter(number__gt=match.number).exists():
            raise GameError(_("A newer game has already been dealt at this table."))
        if player is not None and table.rated and not player.user.is_bot:
            playban.check_rated_allowed(user)
        if player is not None:
            player.wants_again = True
            player.save(update_fields=["wants_again"])
            _keep_value(table, user, seed_value, seed_commitment)
        agreed = {p.user_id for p in loaded.players if p.wants_again}
        new_match = None
        if table.seats.count() == table.players and humans <= agreed:
            new_match = _deal_when_ready(table)
        _again_answered(match, table, user.pk if player is not None else None, new_match)
    return new_match


def play_again_with_bots(*, match_id: int, user: User, level: str) -> Match:
    """After a finished match, a player who agreed to play again deals the next match with bots of
    ``level`` in the seats of the humans who did not agree (they leave the table)."""
    if level not in bots.LEVELS:
        raise TableError(_("There is no bot of that level."))
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        match = loaded.match
        if match.is_active:
            raise GameError(_("This game is still being played."))
        player = loaded.player_of(user)
        if player is None:
            raise NotYourSeat()
        if not player.wants_again:
            raise GameError(_("Agree to play again first."))
        table = _lock_table(match.table_id)
        _refuse_bots_at_rated(table)
        if table.matches.filter(number__gt=match.number).exists():
            raise GameError(_("A newer game has already been dealt at this table."))
        agreed = {p.user_id for p in loaded.players if p.wants_again}
        table.seats.filter(user__is_bot=False).exclude(user_id__in=agreed).delete()
        seats = list(table.seats.all())
        free = _free_positions(table, seats)
        bot_users = bot_accounts(
            level=User.BotLevel(level), count=len(free), exclude={s.user_id for s in seats}
        )
        for position, bot in zip(free, bot_users, strict=True):
            Seat.objects.create(table=table, position=position, user=bot)
        new_match = _deal(table)
        _again_answered(match, table, user.pk, new_match)
    return new_match


# --- internals --------------------------------------------------------------------------------


def _refuse_bots_at_rated(table: Table) -> None:
    """The club's bots never sit at a rated table (``docs/rules.md`` §7, "Bots"): as Lichess rates
    no game against its computer, a rating measures play against people only."""
    if table.rated:
        raise TableError(_("A rated table is for people only: play bots at a casual table."))


def _again_answered(match: Match, table: Table, user_id: int | None, new_match: Match | None) -> None:
    """After a "play again" at the finished ``match``: tell the listeners who agreed (``user_id``,
    a seated player; ``None`` for a creator dealing a table of bots) and redraw the match's and
    the table's pages (the match's version moves so its sockets draw the answer)."""
    if user_id is not None:
        again_wanted.send(sender=Match, match=match, user_id=user_id, new_match=new_match)
    match.version += 1
    match.save(update_fields=["version"])
    broadcast.match_changed(match)
    broadcast.table_changed(table)


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError(_("There is no such table.")) from None


def _check_value(value: object) -> None:
    """Refuse a malformed value before anything is locked (``None``: no value sent)."""
    if value is not None and not seeding.valid_value(value):
        raise TableError(_("That is not a random value from your browser (32 hexadecimal digits)."))


def _keep_value(table: Table, user: User, value: str | None, commitment: str | None) -> None:
    """Keep ``user``'s value sent with a seat or a "play again", when its commitment is still the
    table's next deal and none was kept yet (a stale one is left out: the deal goes on without it)."""
    if value is None or not table.server_seed or commitment != seeding.commitment(table.server_seed):
        return
    SeedContribution.objects.get_or_create(
        commitment=commitment, user=user, defaults={"table": table, "value": value}
    )


def _seats(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user").order_by("position"))


def _awaited(table: Table, seats: list[Seat]) -> list[int]:
    """The seated humans whose browsers are open and who have not sent a value for the table's
    next deal: the ones a deal waits for. A bot's or a program's seat has no browser, and a
    player with no page open could not answer."""
    if not table.server_seed:
        return []
    humans = {s.user_id for s in seats if not s.user.is_bot}
    sent = set(
        SeedContribution.objects.filter(
            table=table, commitment=seeding.commitment(table.server_seed), user_id__in=humans
        ).values_list("user_id", flat=True)
    )
    return sorted(people_selectors.online_ids(humans - sent))


def _deal_when_ready(table: Table) -> Match | None:
    """Deal at the locked, full ``table`` now, or, while a value is awaited (``_awaited``), put it
    in the "dealing" state for ``settings.GAMES_DEAL_WAIT_SECONDS``: the awaited pages are asked
    for their values and the deal comes with the last of them or at the deadline. Returns the
    match if dealt."""
    seats = _seats(table)
    _check_dealable(table, seats)
    if table.status == Table.Status.DEALING:
        return None
    awaited = _awaited(table, seats)
    if not awaited:
        return _deal(table)
    wait = int(settings.GAMES_DEAL_WAIT_SECONDS)
    table.status = Table.Status.DEALING
    table.deal_due_at = timezone.now() + timedelta(seconds=wait)
    table.save(update_fields=["status", "deal_due_at"])
    broadcast.deal_wanted(table, awaited, seeding.commitment(table.server_seed))
    enqueue_on_commit(DEAL_DUE_TASK, table.pk, countdown=wait)
    return None


def _deal_awaited(table: Table) -> Match | None:
    """Deal at the locked, dealing ``table`` whose wait is over, and send its seated players to
    the match wherever they are (nobody's request is waiting for this deal). A table that can no
    longer deal (a player was barred meanwhile) opens again."""
    try:
        match = _deal(table)
    except TableError:
        table.status, table.deal_due_at = Table.Status.OPEN, None
        table.save(update_fields=["status", "deal_due_at"])
        broadcast.table_changed(table)
        return None
    broadcast.table_changed(table)
    broadcast.dealt_later(match, [s.user_id for s in _seats(table) if not s.user.is_bot])
    match_dealt.send(sender=Match, match=match)
    return match


def _deal_seed(table: Table, seats: list[Seat]) -> tuple[str, str, list[dict[str, object]]]:
    """``(server_seed, seed, contributions)`` of the deal at the locked ``table``: the values its
    seated humans sent for the table's commitment, in seat order. The table then commits to a
    fresh server seed, and the values of the deal are dropped from the table (the match keeps
    them)."""
    server_seed = table.server_seed or new_seed()
    commitment = seeding.commitment(server_seed)
    sent = dict(
        SeedContribution.objects.filter(table=table, commitment=commitment).values_list("user_id", "value")
    )
    contributions: list[dict[str, object]] = [
        {"seat": seat.position, "value": None if seat.user.is_bot else sent.get(seat.user_id)}
        for seat in seats
    ]
    for entry, seat in zip(contributions, seats, strict=True):
        if not seat.user.is_bot and entry["value"] is None:
            entry["missing"] = True
    seed = seeding.deal_seed(server_seed, [str(entry["value"] or "") for entry in contributions])
    SeedContribution.objects.filter(table=table).delete()
    table.server_seed = new_seed()
    table.save(update_fields=["server_seed"])
    return server_seed, seed, contributions


def _free_positions(table: Table, seats: Iterable[Seat]) -> list[int]:
    taken = {s.position for s in seats}
    return [p for p in range(table.players) if p not in taken]


def _check_dealable(table: Table, seats: list[Seat]) -> None:
    """The locked ``table`` is full, plays no match, and seats nobody barred from its rated play."""
    if len(seats) != table.players:
        raise TableError(_("The table is not full yet."))
    if table.matches.filter(status=Match.Status.ACTIVE).exists():
        raise TableError(_("A game is already being played at this table."))
    if table.rated and not table.organised:
        playban.check_seated_allowed(s.user_id for s in seats)


def _deal(table: Table) -> Match:
    """Deal a match at the locked ``table`` (full, no match in play) and arm its turn."""
    seats = _seats(table)
    _check_dealable(table, seats)
    previous = table.matches.order_by("-number").first()
    rules = Rules.from_dict(table.rules)
    server_seed, seed, contributions = _deal_seed(table, seats)
    state = new_game(rules, seed=seed, dealer=_next_dealer(previous, rules))
    match = Match.objects.create(
        table=table,
        number=(previous.number + 1) if previous else 1,
        rules=table.rules,
        seed=seed,
        server_seed=server_seed,
        contributions=contributions,
        dealer=state.dealer,
        snapshot=state.to_json(),
        deadline_at=timezone.now() + timedelta(seconds=table.turn_seconds),
    )
    shown = ratings.ratings(table_kind_pool(table.rules), [s.user for s in seats])
    players = MatchPlayer.objects.bulk_create(
        MatchPlayer(
            match=match,
            seat=s.position,
            user=s.user,
            rating=shown[s.user_id].rating if s.user_id in shown else None,
            rating_provisional=bool(s.user_id in shown and shown[s.user_id].provisional),
        )
        for s in seats
    )
    table.status, table.deal_due_at = Table.Status.PLAYING, None
    table.save(update_fields=["status", "deal_due_at"])
    turn.send_bot_turns(match, state, players)
    return match


def _refuse_blocked(table: Table, seats: list[Seat], user: User) -> None:
    """Nobody sits down at an open table with a player they blocked or who blocked them (the
    table's creator counts too, seated or not)."""
    others = {table.creator_id, *(s.user_id for s in seats)} - {user.pk}
    if others & people_selectors.blocked_ids(user.pk):
        raise TableError(_("You cannot sit at this table: a player there blocked you, or you blocked them."))


def _next_dealer(previous: Match | None, rules: Rules) -> int | None:
    """``docs/rules.md`` §1: the previous game's fool deals; after a draw, a team game or an
    aborted game the deal passes to the left; the first game's dealer comes from the seed (None)."""
    if previous is None:
        return None
    fool = (previous.result or {}).get("fool")
    if previous.status == Match.Status.FINISHED and fool is not None and not rules.teams:
        return int(fool)
    return (previous.dealer + 1) % rules.players
