"""Who plays: registering (or joining a running arena), bots added by the organiser, check-in,
withdrawing, and a player removed by the organiser.

A player leaving a live tournament forfeits what they still play: a two-player pairing goes to
the opponent at once; at a multi-table round or in an arena the player resigns and the game
plays on, counting them as its fool. Then the event moves on (``progress``).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.services import bot_accounts
from games.bots import LEVELS
from games.engine import Rules
from games.models import Match
from play import services as games
from play.services import playban
from tournaments import selectors
from tournaments.models import Entry, Pairing, Tournament
from tournaments.services.arena import arena_advance, arena_enter, arena_takes_players
from tournaments.services.errors import TournamentError
from tournaments.services.locking import tournament_changed, tournament_lock
from tournaments.services.pairings import pairing_decide
from tournaments.services.progress import tournament_advance

logger = logging.getLogger(__name__)


def entry_register(*, tournament_id: int, user: User) -> Entry:
    """Register ``user`` (a human; bots are added by the organiser). A running arena takes
    players until its time is up: they join at once and are paired as soon as they can be."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        if tournament.rated:  # the staff's bar, and the ledger's for games left too early
            try:
                playban.check_rated_allowed(user)
            except playban.RatedPlayBarred as error:
                raise TournamentError(error.message) from None
        if arena_takes_players(tournament):
            return _arena_join(tournament, user)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise TournamentError(_("Registration is closed."))
        deadline = tournament.registration_deadline
        if deadline is not None and deadline <= timezone.now():
            raise TournamentError(_("The registration deadline has passed."))
        _refuse_bots_registering(tournament, user)
        entry = tournament.entries.filter(player=user).first()
        if entry is not None and entry.is_active:
            raise TournamentError(_("You are already registered."))
        if tournament.entries.filter(state=Entry.State.ACTIVE).count() >= tournament.max_players:
            raise TournamentError(_("The tournament is full."))
        entry = _entry_activate(tournament, user, entry, checked_in=tournament.checkin_minutes == 0)
        tournament_changed(tournament)
    return entry


def bots_add(*, tournament_id: int, user: User, level: str, count: int) -> list[Entry]:
    """Add ``count`` bots of ``level`` (if the tournament allows bots); they are checked in. A
    running arena takes them until its time is up."""
    if level not in LEVELS:
        raise TournamentError(_("There is no bot of that level."))
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
        if not tournament.bots_allowed:
            raise TournamentError(_("This tournament does not allow bots."))
        joining = arena_takes_players(tournament)
        if not (tournament.is_open or joining):
            raise TournamentError(_("Players can be added only before the start."))
        active = tournament.entries.filter(state=Entry.State.ACTIVE).count()
        if count < 1 or active + count > tournament.max_players:
            raise TournamentError(_("That many bots would exceed the maximum number of players."))
        present = set(tournament.entries.values_list("player_id", flat=True))
        rules = Rules.from_dict(tournament.rules)
        added = [
            Entry.objects.create(
                tournament=tournament,
                player=bot,
                seed_rating=selectors.seed_rating(bot, rules),
                checked_in=True,
            )
            for bot in bot_accounts(level=User.BotLevel(level), count=count, exclude=present)
        ]
        if joining:
            for entry in added:
                arena_enter(tournament, entry)
            arena_advance(tournament)
        tournament_changed(tournament)
    return added


def entry_withdraw(*, tournament_id: int, user: User) -> None:
    """Withdraw ``user``: before the start the entry just goes; once running, their remaining
    games are forfeited and their opponents go through."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        entry = tournament.entries.filter(player=user, state=Entry.State.ACTIVE).first()
        if entry is None:
            raise TournamentError(_("You are not registered."))
        _drop(tournament, entry, Entry.State.WITHDRAWN)


def entry_check_in(*, tournament_id: int, user: User) -> None:
    """Check in during the check-in window (before the start)."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        if not _checkin_open(tournament):
            raise TournamentError(_("Check-in is not open."))
        entry = tournament.entries.filter(player=user, state=Entry.State.ACTIVE).first()
        if entry is None:
            raise TournamentError(_("You are not registered."))
        if entry.checked_in:
            raise TournamentError(_("You have already checked in."))
        entry.checked_in = True
        entry.save(update_fields=["checked_in"])
        tournament_changed(tournament)


def player_remove(*, tournament_id: int, user: User, player_id: int) -> None:
    """Remove a player: before the start their entry goes; once running their remaining games
    are forfeited and their opponents go through."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
        # ``player__pk``, not ``player_id``: a pk lookup turns an id beyond the column's range
        # (it comes from the URL) into "no row", where SQLite would raise OverflowError.
        entry = tournament.entries.filter(player__pk=player_id, state=Entry.State.ACTIVE).first()
        if entry is None:
            raise TournamentError(_("That player is not in the tournament."))
        _drop(tournament, entry, Entry.State.REMOVED)


def _refuse_bots_registering(tournament: Tournament, user: User) -> None:
    """The club's bots are added by the organiser; a program's bot account (the Bot API) may
    register itself where the organiser allows bots, and nowhere else."""
    if user.is_program and not tournament.bots_allowed:
        raise TournamentError(_("This tournament does not allow bots."))
    if user.is_bot and not user.is_program:
        raise TournamentError(_("Bots are added by the organiser."))


def _arena_join(tournament: Tournament, user: User) -> Entry:
    """``user`` joins a running arena (or comes back after withdrawing from it)."""
    _refuse_bots_registering(tournament, user)
    entry = tournament.entries.filter(player=user).first()
    if entry is not None and entry.is_active:
        raise TournamentError(_("You are already registered."))
    if entry is not None and entry.state == Entry.State.REMOVED:
        raise TournamentError(_("The organiser has removed you from this tournament."))
    if tournament.entries.filter(state=Entry.State.ACTIVE).count() >= tournament.max_players:
        raise TournamentError(_("The tournament is full."))
    entry = _entry_activate(tournament, user, entry, checked_in=True)
    arena_enter(tournament, entry)
    arena_advance(tournament)
    tournament_changed(tournament)
    return entry


def _entry_activate(tournament: Tournament, user: User, entry: Entry | None, *, checked_in: bool) -> Entry:
    """``user``'s entry, new (seeded by their rating now) or active again after withdrawing."""
    if entry is None:
        return Entry.objects.create(
            tournament=tournament,
            player=user,
            seed_rating=selectors.seed_rating(user, Rules.from_dict(tournament.rules)),
            checked_in=checked_in,
        )
    entry.state = Entry.State.ACTIVE
    entry.checked_in = checked_in
    entry.save(update_fields=["state", "checked_in"])
    return entry


def _checkin_open(tournament: Tournament) -> bool:
    """Whether players may check in now: in check-in, or once its window opened."""
    if tournament.checkin_minutes == 0 or not tournament.is_open:
        return False
    opens = tournament.starts_at - timedelta(minutes=tournament.checkin_minutes)
    return tournament.status == Tournament.Status.CHECK_IN or timezone.now() >= opens


def _drop(tournament: Tournament, entry: Entry, state: Entry.State) -> None:
    """Take ``entry`` out. Before the start that is all; in a live tournament each pairing of
    theirs still being played is forfeited (two players: the opponent wins it at once; at a
    multi-table round or in an arena the player resigns and the game plays on, counting them
    as its fool), then the event moves on; the page is told. Refused once the tournament is over."""
    if not (tournament.is_open or tournament.is_live):
        raise TournamentError(_("This tournament is over."))
    entry.state = state
    entry.save(update_fields=["state"])
    if tournament.is_live:
        player = entry.player
        for pairing in Pairing.objects.select_for_update().filter(
            tournament=tournament, status=Pairing.Status.PLAYING, players__user=player
        ):
            players = [p.user_id for p in pairing.players.all()]
            if not (tournament.is_multi_table or tournament.is_arena):
                pairing_decide(pairing, players, 0.0 if players[0] == player.pk else 1.0, forfeit=True)
            _resign(pairing, player)
        if tournament.status == Tournament.Status.RUNNING:
            tournament_advance(tournament)
    tournament_changed(tournament)


def _resign(pairing: Pairing, player: User) -> None:
    """Resign ``player``'s running match at the pairing's table, if there is one."""
    if pairing.table_id is None:
        return
    match = Match.objects.filter(table_id=pairing.table_id, status=Match.Status.ACTIVE).first()
    if match is None or not match.players.filter(user=player, resigned=False).exists():
        return
    try:
        games.match_resign(match_id=match.pk, user=player)
    except games.GameError:
        logger.warning("could not resign %s from match %s", player.pk, match.pk)
