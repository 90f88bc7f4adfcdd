"""Every write of live play: tables, seats, matches and moves (HackSoft style: views, consumers,
Celery tasks and commands parse their input and call these; keyword-only arguments).

The shape of a move: lock the match row (``select_for_update``), check the expected version,
apply through the engine, append ``Move`` rows, save the snapshot, bump the version; after the
commit, broadcast a thin "changed" event and enqueue the next bot turns and the deadline. Errors
are ``GameError`` subclasses carrying a translated ``message`` for the sender alone; a failed call
changes nothing. The version goes up by exactly one per successful call, so two calls made at the
same version have exactly one winner.

Lock order: a match row before its table row (every match path touches the table only at its
end, when the match finishes); table operations lock the table row alone.

Channel-layer groups and events (nothing private ever crosses the channel layer):

* ``match_group(match_id)`` = ``"match-<id>"``:
  ``{"type": "match.changed", "match": id, "version": v}``
* ``table_group(table_id)`` = ``"table-<id>"``: ``{"type": "table.changed", "table": id}``
  (seats taken or left, a match started: ``selectors.table_current_match`` tells where to go)
* ``LOBBY_GROUP`` = ``"lobby"``: ``{"type": "lobby.changed"}`` (re-read ``selectors.open_tables``)

Time: every active match has ``deadline_at`` (now + the table's ``turn_seconds`` after each
change; the seats' own halved timers when every awaited seat halved its own, see
``match_halve_timer``) and one turn timer: a Celery ``deadline`` task due at ``timer_at``. A
move only pushes ``deadline_at`` later, so it enqueues nothing while a timer is queued: when
that timer comes due before the deadline, it re-arms itself for the deadline
(``match_deadline``). One task per turn timer instead of one per move keeps the broker and the
worker quiet at busy tables. A timer is known by its due time, so a stale or duplicated one does
nothing. Seats the engine awaits that belong to bots (or to autopilots) get a ``bot_turn`` task
after a short human-like delay (``settings.GAMES_BOT_DELAY``, default 0.6-1.2 s); it carries the
version and does nothing once the match has moved on. ``match_rearm`` re-enqueues both after a
restart, and ``matches_timeout_overdue`` (beat) plays any deadline whose timer was lost.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.services import bot_accounts
from durak_site.broadcast import group_send_on_commit
from durak_site.errors import Refused
from durak_site.tasks import enqueue_on_commit
from games import bots
from games.engine import Action, GameState, IllegalAction, NotationError, Rules, new_game
from games.live import selectors
from games.models import Match, MatchPlayer, Move, Seat, Table
from games.pools import rated_pool
from games.results import match_result
from games.signals import match_finished
from games.words import illegal_message

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"

#: Consecutive timeouts after which a seat is put on autopilot (and counts as the fool).
AUTOPILOT_AFTER_TIMEOUTS = 3
#: The bot level that plays a seat on autopilot.
AUTOPILOT_LEVEL = "easy"
#: What the engine awaits from a seat that only the seat's owner can decide; a timeout on these
#: counts towards autopilot. A thrower's pending pass (``throw_in``, ``take_more``) does not.
TIMEOUT_COUNTED = frozenset({"lead", "cover", "beat"})
DEFAULT_BOT_DELAY = (0.6, 1.2)
#: The shortest turn timer: a table's may not be shorter, and a halved one stops here.
MIN_TURN_SECONDS = 5
NO_SUCH_MATCH = _("There is no such game.")


def new_seed() -> str:
    """A fresh secret seed for a deal (tests replace this to get a chosen deal)."""
    return secrets.token_hex(16)


def match_group(match_id: int) -> str:
    """The channel-layer group of a match's sockets."""
    return f"match-{match_id}"


def table_group(table_id: int) -> str:
    """The channel-layer group of a table page's sockets (before and between matches)."""
    return f"table-{table_id}"


# --- errors ---------------------------------------------------------------------------------


class GameError(Refused):
    """A refused request of live play (see ``durak_site.errors.Refused``)."""


class IllegalMove(GameError):
    """The engine refused the action (``code`` from ``IllegalAction``) or it did not parse."""

    def __init__(self, message: Any, *, code: str = "illegal") -> None:
        super().__init__(message)
        self.code = code


class StaleVersion(GameError):
    """The client acted on an older version: someone moved first. Re-render and try again."""

    default_message = _("The table has changed in the meantime: look again and repeat your move.")


class NotYourSeat(GameError):
    """The user does not play this match, or their seat is played by the autopilot."""

    default_message = _("You do not play in this game.")


class MatchOver(GameError):
    """The match is finished or aborted."""

    default_message = _("This game is over.")


class TableError(GameError):
    """A refused table or seat operation (full, taken, already seated, wrong invite…)."""


class RatedRulesError(TableError):
    """The options of a rated table are outside the rating pools."""

    default_message = _(
        "A rated table plays the variant's standard options; only the number of players and teams may change."
    )


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What a successful ``action_apply`` did: the match as committed (with its table), its
    players (with their users) and the move logged.

    Why the rows and not just the new version: the mover's own page is drawn from them straight
    after the commit (``games.live.fragments.action_fragments``), without reading back what this
    transaction has just written."""

    match: Match
    players: list[MatchPlayer]
    move: Move

    @property
    def version(self) -> int:
        return int(self.match.version)

    @property
    def events(self) -> list[dict[str, Any]]:
        return list(self.move.events)

    @property
    def finished(self) -> bool:
        return not self.match.is_active


# --- rated tables -----------------------------------------------------------------------------


def validate_rated_rules(rules: Rules) -> None:
    """Raise ``RatedRulesError`` unless a rated table may play ``rules`` (the table form calls
    this too, so the page and the service refuse the same tables)."""
    if rated_pool(rules) is None:
        raise RatedRulesError()


# --- tables and seats -------------------------------------------------------------------------


def table_create(
    *,
    creator: User,
    rules: Rules,
    rated: bool = False,
    turn_seconds: int = 30,
    private: bool = False,
    sit: bool = True,
) -> Table:
    """Open a table; the creator takes seat 0 unless ``sit`` is false (a table to watch bots).

    A rated table must play the options of a rating pool and seat its creator."""
    if rated:
        validate_rated_rules(rules)
        if not sit:
            raise TableError(_("The creator of a rated table sits at it."))
    if turn_seconds < MIN_TURN_SECONDS:
        raise TableError(_("The turn timer must be at least 5 seconds."))
    with transaction.atomic():
        table = Table.objects.create(
            creator=creator,
            rules=rules.to_dict(),
            rated=rated,
            turn_seconds=turn_seconds,
            private=private,
        )
        if sit:
            Seat.objects.create(table=table, position=0, user=creator)
        _announce_table(table)
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
            _match_start_locked(table)
        _announce_table(table)
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
        _announce_table(table)


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
        _match_start_locked(table)
        _announce_table(table)
    return created


# --- matches --------------------------------------------------------------------------------


def match_start(*, table_id: int) -> Match:
    """Deal a new match at a full table that is not playing one (the previous fool deals)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        match = _match_start_locked(table)
        _announce_table(table)
    return match


def action_apply(*, match_id: int, user: User, action_text: str, expected_version: int) -> ActionResult:
    """Play ``action_text`` (canonical notation) for ``user``'s seat at ``expected_version``.

    Raises ``MatchOver``, ``NotYourSeat``, ``StaleVersion`` or ``IllegalMove`` (with the engine's
    reason); then nothing has changed."""
    try:
        action = Action.parse(action_text)
    except NotationError as error:
        raise IllegalMove(
            _("That is not a move: %(reason)s.") % {"reason": error}, code="notation"
        ) from error
    with transaction.atomic():
        # The hot path of the site: one plain-SQL read of the locked row and its players.
        rows = selectors.match_rows(match_id=match_id, after_seq=None, lock=True)
        if rows is None:
            raise GameError(NO_SUCH_MATCH)
        match, players = rows.match, rows.players
        if not match.is_active:
            raise MatchOver()
        player = next((p for p in players if p.user_id == user.pk), None)
        if player is None:
            raise NotYourSeat()
        if player.autopilot:
            raise NotYourSeat(_("Your seat is played by the autopilot."))
        if match.version != expected_version:
            raise StaleVersion()
        state = GameState.from_json(match.snapshot)
        try:
            move = _play(match, state, player.seat, action, Move.By.PLAYER)
        except IllegalAction as error:
            raise IllegalMove(illegal_message(error), code=error.code) from error
        if player.timeouts:
            player.timeouts = 0
            player.save(update_fields=["timeouts"])
        _commit_change(match, state, players)
    return ActionResult(match=match, players=players, move=move)


def match_timeout(*, match_id: int, version: int) -> bool:
    """The deadline of ``version`` passed: every seat the engine awaits plays (a human's seat the
    engine's default, counting towards autopilot; a bot or autopilot its bot move).

    Returns False, doing nothing, when the match is over or has moved on."""
    with transaction.atomic():
        match = _lock_match(match_id)
        if not match.is_active or match.version != version:
            return False
        state = GameState.from_json(match.snapshot)
        players = {p.seat: p for p in match.players.select_related("user")}
        for seat, code in sorted(state.awaiting().items()):
            if state.is_over or seat not in state.awaiting():
                continue
            player = players[seat]
            if _is_bot_seat(player):
                _play_bot(match, state, player)
                continue
            _play(match, state, seat, state.default_action(seat), Move.By.TIMEOUT)
            if code in TIMEOUT_COUNTED:
                player.timeouts += 1
                player.save(update_fields=["timeouts"])
                if player.timeouts >= AUTOPILOT_AFTER_TIMEOUTS:
                    _forfeit(match, player, resigned=False)
        _commit_change(match, state, list(players.values()))
    return True


def bot_turn(*, match_id: int, version: int, seat: int) -> bool:
    """Play the bot's (or autopilot's) move for ``seat`` at ``version``.

    Returns False, doing nothing, when stale (the match moved on, is over, or does not await
    this seat), so a task delivered twice plays once."""
    with transaction.atomic():
        match = _lock_match(match_id)
        if not match.is_active or match.version != version:
            return False
        state = GameState.from_json(match.snapshot)
        if seat not in state.awaiting():
            return False
        players = list(match.players.select_related("user"))
        player = next(p for p in players if p.seat == seat)
        if not _is_bot_seat(player):
            return False
        _play_bot(match, state, player)
        _commit_change(match, state, players)
    return True


def match_resign(*, match_id: int, user: User) -> None:
    """Resign: the seat goes on autopilot so the others can finish, and counts as the fool."""
    with transaction.atomic():
        match = _lock_match(match_id)
        if not match.is_active:
            raise MatchOver()
        player = match.players.filter(user=user).first()
        if player is None:
            raise NotYourSeat()
        if player.resigned:
            raise GameError(_("You have already resigned."))
        state = GameState.from_json(match.snapshot)
        _forfeit(match, player, resigned=True)
        _commit_change(match, state)


def match_abort(*, match_id: int, user: User) -> None:
    """Abort a match before its first action (any of its human players may)."""
    with transaction.atomic():
        match = _lock_match(match_id)
        if not match.is_active:
            raise MatchOver()
        if not match.players.filter(user=user).exists():
            raise NotYourSeat()
        if match.moves.exists():
            raise GameError(_("The game has begun: it can no longer be aborted."))
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        match.deadline_at = None
        match.version += 1
        match.save(update_fields=["status", "finished_at", "deadline_at", "version"])
        _after_commit_broadcast(match)
        _announce_table(match.table)


def play_again(*, match_id: int, user: User) -> Match | None:
    """Agree to a new match at the same table after this one ended; returns the new match once
    every human seated at the table agreed (bots always do), else ``None``. At a table of bots
    only, its creator deals the next match."""
    with transaction.atomic():
        match = _lock_match(match_id)
        if match.is_active:
            raise GameError(_("This game is still being played."))
        player = match.players.filter(user=user).first()
        table = _lock_table(match.table_id)
        humans = set(table.seats.filter(user__is_bot=False).values_list("user_id", flat=True))
        if player is None and not (table.creator_id == user.pk and not humans):
            raise NotYourSeat()
        if table.matches.filter(number__gt=match.number).exists():
            raise GameError(_("A newer game has already been dealt at this table."))
        if player is not None:
            player.wants_again = True
            player.save(update_fields=["wants_again"])
        agreed = set(match.players.filter(wants_again=True).values_list("user_id", flat=True))
        new_match = None
        if table.seats.count() == table.players and humans <= agreed:
            new_match = _match_start_locked(table)
        match.version += 1
        match.save(update_fields=["version"])
        _after_commit_broadcast(match)
        _announce_table(table)
    return new_match


def match_halve_timer(*, match_id: int, user: User) -> int:
    """Halve ``user``'s own turn timer for the rest of the match, once, before their first move;
    returns the new seconds. Live play only keeps the shorter timer: what it is worth is decided
    above (an arena's berserk). The turn in progress is cut at once when the seat is the one the
    game awaits; a seat never has less time because another one halved theirs
    (:func:`turn_seconds_now`)."""
    with transaction.atomic():
        match = _lock_match(match_id)
        if not match.is_active:
            raise MatchOver()
        players = list(match.players.select_related("user"))
        player = next((p for p in players if p.user_id == user.pk), None)
        if player is None:
            raise NotYourSeat()
        if player.autopilot:
            raise NotYourSeat(_("Your seat is played by the autopilot."))
        if player.turn_seconds is not None:
            raise GameError(_("You have already halved your timer."))
        if match.moves.filter(seat=player.seat).exists():
            raise GameError(_("Your timer can be halved only before your first move."))
        player.turn_seconds = max(MIN_TURN_SECONDS, match.table.turn_seconds // 2)
        player.save(update_fields=["turn_seconds"])
        state = GameState.from_json(match.snapshot)
        cut = timezone.now() + timedelta(seconds=turn_seconds_now(match, state, players))
        if match.deadline_at is None or cut < match.deadline_at:
            match.deadline_at = cut
        match.version += 1  # the pages show the shorter timer; bot turns are armed again for it
        _after_commit_schedule(match, state, players)
        match.save(update_fields=["version", "deadline_at", "timer_at"])
        _after_commit_broadcast(match)
    return int(player.turn_seconds)


def turn_seconds_now(match: Match, state: GameState, players: list[MatchPlayer]) -> int:
    """The seconds the seats the game awaits now have: the table's timer, unless every one of
    them halved their own (``match_halve_timer``); then the longest of their own timers."""
    own = {p.seat: p.turn_seconds for p in players}
    timers = [own.get(seat) for seat in state.awaiting()]
    if not timers or None in timers:
        return int(match.table.turn_seconds)
    return max(t for t in timers if t is not None)


def match_rearm(*, match_id: int) -> None:
    """Enqueue the deadline (at the stored ``deadline_at``) and the bot turns of an active match
    again, e.g. after a restart lost the broker's pending countdowns."""
    with transaction.atomic():
        match = _lock_match(match_id)
        if not match.is_active:
            return
        if match.deadline_at is None:
            match.deadline_at = timezone.now() + timedelta(seconds=match.table.turn_seconds)
        match.timer_at = None  # the queued timer, if any, died with the broker's memory
        state = GameState.from_json(match.snapshot)
        _after_commit_schedule(match, state)
        match.save(update_fields=["deadline_at", "timer_at"])


def matches_rearm() -> int:
    """``match_rearm`` every match in play; returns how many. A match whose re-arm fails is logged
    and skipped: the others must still get their timers."""
    count = 0
    for match_id in selectors.active_matches().values_list("pk", flat=True):
        try:
            match_rearm(match_id=match_id)
        except Exception:
            logger.exception("re-arming match %s failed", match_id)
            continue
        count += 1
    return count


def match_deadline(*, match_id: int, due: str) -> bool:
    """The turn timer due at ``due`` (ISO 8601, the ``timer_at`` it was armed for) fired.

    Before the deadline (moves pushed it later) the timer re-arms itself for it; at or after
    the deadline the awaited seats time out (``match_timeout``). Returns whether it played;
    a timer that is no longer the match's own (stale, or delivered twice) does nothing."""
    with transaction.atomic():
        match = _lock_match(match_id)
        if not match.is_active or match.timer_at is None or match.timer_at.isoformat() != due:
            return False
        match.timer_at = None
        if match.deadline_at is not None and match.deadline_at > timezone.now():
            _arm_timer(match)
            match.save(update_fields=["timer_at"])
            return False
        match.save(update_fields=["timer_at"])
        return match_timeout(match_id=match_id, version=match.version)


def matches_timeout_overdue(*, grace_seconds: float = 10.0) -> int:
    """Play the timeout of every active match whose deadline passed ``grace_seconds`` ago: the
    safety net for a deadline task the broker lost. Returns how many matches it moved on."""
    overdue = Match.objects.filter(
        status=Match.Status.ACTIVE,
        deadline_at__lt=timezone.now() - timedelta(seconds=grace_seconds),
    ).values_list("pk", "version")
    played = 0
    for pk, version in overdue:
        try:
            played += match_timeout(match_id=pk, version=version)
        except Exception:  # a safety net must not stop at one broken match
            logger.exception("the overdue timeout of match %s failed", pk)
    return played


def matches_announce() -> int:
    """Broadcast the current version of every match in play; returns how many.

    The safety net for a broadcast that never left: a process that dies between a move's commit
    and its after-commit work takes the "changed" event with it. Sockets that already show that
    version ignore the event, so announcing costs the up-to-date ones nothing."""
    layer = get_channel_layer()
    if layer is None:
        return 0
    running = list(Match.objects.filter(status=Match.Status.ACTIVE).values_list("pk", "version"))

    async def announce() -> None:
        for pk, version in running:
            await layer.group_send(match_group(pk), changed_event(pk, version))

    async_to_sync(announce)()
    return len(running)


# --- internals: locking, seats, bots ----------------------------------------------------------


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError(_("There is no such table.")) from None


def _lock_match(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update(of=("self",)).select_related("table").get(pk=match_id)
    except Match.DoesNotExist:
        raise GameError(NO_SUCH_MATCH) from None


def _free_positions(table: Table, seats: Iterable[Seat]) -> list[int]:
    taken = {s.position for s in seats}
    return [p for p in range(table.players) if p not in taken]


def _is_bot_seat(player: MatchPlayer) -> bool:
    return player.autopilot or player.user.is_bot


# --- internals: dealing, playing, finishing -------------------------------------------------


def _match_start_locked(table: Table) -> Match:
    """Deal a match at the locked ``table`` (full, no match in play)."""
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
    MatchPlayer.objects.bulk_create(MatchPlayer(match=match, seat=s.position, user=s.user) for s in seats)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    _after_commit_schedule(match, state)
    match.save(update_fields=["timer_at"])
    return match


def _next_dealer(previous: Match | None, rules: Rules) -> int | None:
    """RULES.md §1: the previous game's fool deals; after a draw, a team game or an aborted
    game the deal passes to the left; the first game's dealer comes from the seed (None)."""
    if previous is None:
        return None
    fool = (previous.result or {}).get("fool")
    if previous.status == Match.Status.FINISHED and fool is not None and not rules.teams:
        return int(fool)
    return (previous.dealer + 1) % rules.players


def _play(match: Match, state: GameState, seat: int, action: Action, by: Move.By) -> Move:
    """Apply one action to ``state`` (raises ``IllegalAction`` unchanged) and log it."""
    events = [event.to_dict() for event in state.apply(seat, action)]
    match.last_seq += 1  # saved by ``_commit_change``, which every move ends with
    return Move.objects.create(
        match=match, seq=match.last_seq, seat=seat, action=str(action), events=events, by=by
    )


def _play_bot(match: Match, state: GameState, player: MatchPlayer) -> None:
    """The bot's move for ``player``'s seat: its level, or the autopilot's for a human.

    A bot that fails (raises, or answers an illegal action) is logged and replaced by the
    engine's default for this move: a bug in a bot must not leave a match waiting forever."""
    level = AUTOPILOT_LEVEL if not player.user.is_bot else player.user.bot_level
    if level not in bots.LEVELS:
        level = AUTOPILOT_LEVEL
    seat = player.seat
    by = Move.By.BOT if player.user.is_bot else Move.By.AUTOPILOT
    legal = state.legal_actions(seat)
    try:
        action = bots.choose_action(
            level,
            state.view(seat),
            legal,
            f"{match.pk}:{match.version}:{seat}",
            rules=Rules.from_dict(match.rules),
            history=_public_history(match),
        )
        if action not in legal:
            raise IllegalAction("bot_illegal", f"the {level} bot chose {action}, which is not legal")
    except Exception:
        logger.exception("bot %s failed in match %s at version %s", level, match.pk, match.version)
        action = state.default_action(seat)
    _play(match, state, seat, action, by)


def _public_history(match: Match) -> list[dict[str, Any]]:
    """Every public event of the match so far, in order: what a careful player at the table saw
    (the searching bots remember picked-up cards and the discard from it)."""
    logged = match.moves.order_by("seq").values_list("events", flat=True)
    return [event for events in logged for event in events]


def _forfeit(match: Match, player: MatchPlayer, *, resigned: bool) -> None:
    """Put ``player`` on autopilot; the first to forfeit is the match's fool."""
    if player.forfeit_order is None:
        last = match.players.aggregate(last=Max("forfeit_order"))["last"] or 0
        player.forfeit_order = last + 1
    player.autopilot = True
    player.resigned = player.resigned or resigned
    player.save(update_fields=["autopilot", "resigned", "forfeit_order"])


def _commit_change(match: Match, state: GameState, players: list[MatchPlayer] | None = None) -> None:
    """Save ``state`` as the match's snapshot, bump the version, finish the match when the game
    (or a forfeit) decided it, and arrange the after-commit broadcast and tasks.

    ``players`` are all of the match's players (with their users) as already read and changed
    under the lock, so the hot path does not read them again; without them they are read here.
    Only the fields a move changes are written (the row's rules, seed and result stay put)."""
    match.snapshot = state.to_json()
    match.version += 1
    if players is None:
        players = list(match.players.select_related("user"))
    fields = ["snapshot", "version", "last_seq", "deadline_at", "timer_at"]
    if state.is_over or _decided_by_forfeit(match, state, players):
        _finish(match, state, players)
        fields += ["status", "finished_at", "result"]
    else:
        match.deadline_at = timezone.now() + timedelta(seconds=turn_seconds_now(match, state, players))
        _after_commit_schedule(match, state, players)
    match.save(update_fields=fields)
    _after_commit_broadcast(match)


def _seats_in_play(state: GameState) -> set[int]:
    """Seats that have not finished (they hold cards, or will in circle stage 1)."""
    finished = {seat for place in state.places for seat in place}
    return set(range(state.n)) - finished


def _decided_by_forfeit(match: Match, state: GameState, players: list[MatchPlayer]) -> bool:
    """Whether forfeits already decide the game: in teams any forfeit does (that team loses);
    otherwise when at most one seat still in play is not forfeited."""
    forfeited = {p.seat for p in players if p.forfeited}
    if not forfeited:
        return False
    if Rules.from_dict(match.rules).teams:
        return True
    return len(_seats_in_play(state) - forfeited) <= 1


def _finish(match: Match, state: GameState, players: list[MatchPlayer]) -> None:
    """Write the result, places and fool; free the table for "play again"."""
    forfeits = [p.seat for p in sorted(players, key=lambda p: p.forfeit_order or 0) if p.forfeited]
    result = match_result(rules=Rules.from_dict(match.rules), state=state, forfeits=forfeits)
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.deadline_at = None
    match.timer_at = None  # a queued timer finds the match over and does nothing
    match.result = result
    place_of = {seat: i + 1 for i, group in enumerate(result["places"]) for seat in group}
    losers = set(result["losing_team"] or ()) | {result["fool"]}
    for player in players:
        player.place = place_of.get(player.seat)
        player.fool = player.seat in losers
        player.save(update_fields=["place", "fool"])
    _announce_table(match.table)
    match_finished.send(sender=Match, match=match)


# --- internals: after commit ------------------------------------------------------------------


#: A queued timer this long overdue is taken for lost (a broker restart) and armed anew; were it
#: only late, the one that fires second finds itself replaced and does nothing.
TIMER_LOST_AFTER = timedelta(seconds=10)


def _arm_timer(match: Match) -> None:
    """Make sure a turn timer will fire at or before ``match.deadline_at``: keep the queued one
    (due at ``timer_at``) while it comes no later and is not lost, else enqueue one after commit
    for the deadline and set ``timer_at`` (the caller saves the field)."""
    from games import tasks  # tasks import this module

    if match.deadline_at is None:
        return
    now = timezone.now()
    queued = match.timer_at
    if queued is not None and queued <= match.deadline_at and queued > now - TIMER_LOST_AFTER:
        return
    due = match.deadline_at
    match.timer_at = due
    delay = max(due - now, timedelta(0))
    enqueue_on_commit(tasks.deadline, match.pk, due.isoformat(), countdown=delay.total_seconds())


def _after_commit_schedule(match: Match, state: GameState, players: list[MatchPlayer] | None = None) -> None:
    """The turn timer (``_arm_timer``: the caller saves ``timer_at``) and, after commit, a bot
    turn for each awaited seat played by a bot or an autopilot (``players``: the match's
    current players, if at hand)."""
    from games import tasks  # tasks import this module

    _arm_timer(match)
    version = match.version
    awaited = state.awaiting()
    if not awaited:
        return
    if players is None:
        players = list(match.players.select_related("user").filter(seat__in=list(awaited)))
    bot_seats = [p.seat for p in players if p.seat in awaited and _is_bot_seat(p)]
    low, high = getattr(settings, "GAMES_BOT_DELAY", DEFAULT_BOT_DELAY)
    for seat in bot_seats:
        enqueue_on_commit(tasks.bot_turn, match.pk, version, seat, countdown=random.uniform(low, high))


def changed_event(match_id: int, version: int) -> dict[str, Any]:
    """The thin broadcast of a match at ``version`` (the only match event on the layer)."""
    return {"type": "match.changed", "match": match_id, "version": version}


def _after_commit_broadcast(match: Match) -> None:
    group_send_on_commit(match_group(match.pk), changed_event(match.pk, match.version))


def _announce_table(table: Table) -> None:
    """After commit: tell the table page and the lobby that the table changed."""
    group_send_on_commit(table_group(table.pk), {"type": "table.changed", "table": table.pk})
    group_send_on_commit(LOBBY_GROUP, {"type": "lobby.changed"})
