"""Quick pairing: open a seek ("Play now"), cancel it, fill it with bots, and pair the pool.

Exactly once, across processes: every write to the pool runs under one PostgreSQL advisory lock
(``_lock_pool``), taken before the pool is read, so two "Play now" at the same moment are
serialised and the second sees the first's seek; the unique "one waiting seek a person" is the
last line of defence. Pairing is quick (a few rows, one pure ``matching.pair``), so one lock for
the whole pool costs less than the reasoning a lock per setup would need. A group found makes its
table through ``play.services`` in the same transaction (the last seat deals the match),
and everyone in it is taken to the match after the commit. A player barred from rated play
(``playban``) cannot open a rated seek.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from durak_site.errors import Refused
from games import bots
from games.models import Table
from pairing import push
from pairing.matching import Waiting, blocked_key, current_range, pair
from pairing.models import Seek
from pairing.setups import Setup, SetupError
from people.models import Block
from people.selectors import online_ids
from play import selectors as game_selectors
from play import services as games
from play.services import playban
from ratings.elo import START_RATING
from ratings.models import Rating

logger = logging.getLogger(__name__)

#: The advisory-lock key of the seek pool on PostgreSQL ("seek" in ASCII).
POOL_LOCK_KEY = 0x7365656B

#: The rating range a rated seek starts from when the player does not choose one.
DEFAULT_RANGE = 200

#: A seek older than this whose owner has no page open is abandoned (``pool_pair``).
ABANDONED_AFTER_SECONDS = 30

#: After this long alone, a seek offers to fill the table with bots (the player chooses).
BOTS_AFTER_SECONDS = 20


class SeekError(Refused):
    default_message = _("This seek is not possible.")


def seek_open(*, user: User, setup: Setup, rating_range: int | None = DEFAULT_RANGE) -> Seek:
    """Play now: ``user`` waits for ``setup`` (a previous waiting seek of theirs is replaced),
    and the pool is paired at once; the returned seek says whether it already found a table."""
    if user.is_bot:
        raise SeekError(_("Bots do not seek games."))
    try:
        setup.rules()
    except SetupError:
        raise SeekError(_("No table can be made with these options.")) from None
    if rating_range is not None and not 0 <= rating_range <= 2000:
        raise SeekError(_("The rating range must be between 0 and 2000."))
    if setup.rated:
        # Refused at the door, not when the pool pairs: the other players would wait for nothing.
        try:
            playban.check_rated_allowed(user)
        except playban.RatedPlayBarred as error:
            raise SeekError(f"{error.message} {_('You may play at a casual table.')}") from None
    with transaction.atomic():
        _lock_pool()
        Seek.objects.filter(user=user, status=Seek.Status.WAITING).update(status=Seek.Status.CANCELLED)
        seek = Seek.objects.create(
            user=user,
            variant=setup.variant,
            players=setup.players,
            teams=setup.teams,
            deck=setup.deck,
            turn_seconds=setup.turn_seconds,
            rated=setup.rated,
            rating=_rating(user, setup),
            rating_range=rating_range if setup.rated else None,
        )
        _pair_locked()
        push.grid_changed()
    seek.refresh_from_db()
    return seek


def seek_cancel(*, user_id: int) -> int:
    """``user_id`` stops waiting (the button, or their last socket closed); how many seeks went."""
    with transaction.atomic():
        _lock_pool()
        gone = Seek.objects.filter(user_id=user_id, status=Seek.Status.WAITING).update(
            status=Seek.Status.CANCELLED
        )
        if gone:
            push.grid_changed()
    return gone


def seek_fill_with_bots(*, user: User, seek_id: int, level: str) -> Table:
    """The owner of a seek that waited ``BOTS_AFTER_SECONDS`` plays now, bots taking the seats
    nobody came for; the seek is matched. Returns the table, dealt or dealing."""
    if level not in bots.LEVELS:
        raise SeekError(_("There is no bot of that level."))
    with transaction.atomic():
        _lock_pool()
        seek = Seek.objects.filter(pk=seek_id, user=user, status=Seek.Status.WAITING).first()
        if seek is None:
            raise SeekError(_("You are not waiting for a game."))
        if seek.rated:
            raise SeekError(_("A rated table is for people only: play bots at a casual table."))
        if (timezone.now() - seek.created).total_seconds() < BOTS_AFTER_SECONDS:
            raise SeekError(_("Wait a little longer: somebody may still come."))
        setup = seek.setup
        table = games.table_create(
            creator=user, rules=setup.rules(), rated=setup.rated, turn_seconds=setup.turn_seconds
        )
        games.seats_fill_with_bots(table_id=table.pk, user=user, level=level)
        seek.status, seek.table = Seek.Status.MATCHED, table
        seek.save(update_fields=["status", "table"])
        _announce(table, [user.pk])
        push.grid_changed()
    return table


def pool_pair() -> int:
    """Pair the pool again (the beat runs this, so widened ranges meet); tables made.

    First the seeks of players with no page open go: a daphne killed with their socket never
    sent ``user_offline``, and its presence rows have gone stale since."""
    with transaction.atomic():
        _lock_pool()
        waiting = Seek.objects.filter(status=Seek.Status.WAITING)
        old = waiting.filter(created__lt=timezone.now() - timedelta(seconds=ABANDONED_AFTER_SECONDS))
        owners = set(old.values_list("user_id", flat=True))
        gone = old.exclude(user_id__in=online_ids(owners)).update(status=Seek.Status.CANCELLED)
        made = _pair_locked()
        if made or gone:
            push.grid_changed()
    return made


# --- internals --------------------------------------------------------------------------------


def _lock_pool() -> None:
    """Serialise every change to the pool until the transaction ends (SQLite serialises writers
    by itself)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [POOL_LOCK_KEY])


def _rating(user: User, setup: Setup) -> float:
    found = Rating.objects.filter(user=user, pool=setup.pool).values_list("rating", flat=True).first()
    return float(found) if found is not None else START_RATING


def _pair_locked() -> int:
    """Seat every group the matcher finds in the waiting pool (the lock is held)."""
    now = timezone.now()
    seeks = {s.pk: s for s in Seek.objects.filter(status=Seek.Status.WAITING).select_related("user")}
    if len(seeks) < 2:
        return 0
    user_ids = {s.user_id for s in seeks.values()}
    blocked = {
        blocked_key(a, b)
        for a, b in Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids).values_list(
            "blocker_id", "blocked_id"
        )
    }
    waiting = [
        Waiting(
            id=s.pk,
            user_id=s.user_id,
            setup=s.setup,
            rating=s.rating,
            range=current_range(s.rating_range, (now - s.created).total_seconds()),
            since=s.created.timestamp(),
        )
        for s in seeks.values()
    ]
    made = 0
    for group in pair(waiting, blocked):
        members = [seeks[w.id] for w in group]
        try:
            with transaction.atomic():
                table = _seat(members)
        except games.GameError as error:  # e.g. a player's open-table limit: they wait on
            logger.info("pairing %s refused: %s", [m.pk for m in members], error)
            continue
        Seek.objects.filter(pk__in=[m.pk for m in members]).update(status=Seek.Status.MATCHED, table=table)
        _announce(table, [m.user_id for m in members])
        made += 1
    return made


def _seat(members: list[Seek]) -> Table:
    """A table of the group's setup, its members seated in order; the last seat deals."""
    setup = members[0].setup
    first = members[0].user
    table = games.table_create(
        creator=first, rules=setup.rules(), rated=setup.rated, turn_seconds=setup.turn_seconds
    )
    for member in members[1:]:
        games.table_join(table_id=table.pk, user=member.user)
    return table


def _announce(table: Table, user_ids: list[int]) -> None:
    """Take the paired players to their match. A table still waiting for their browsers' values
    (``play.services.tables``) sends them there itself when it deals."""
    match = game_selectors.table_current_match(table_id=table.pk)
    if match is not None and match.is_active:
        push.match_started(user_ids, match.pk, why="pairing")
