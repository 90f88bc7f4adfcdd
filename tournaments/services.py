"""Every write of tournaments: setting one up, registration and check-in, running it, results.

Views, consumers and Celery tasks parse their input and call these (keyword-only arguments).
A refused request raises ``TournamentError`` with a translated ``message``; nothing changed then.

Running a tournament composes live play: each pairing gets a private ``games.Table`` with the
tournament's rules and timer, its players are seated through ``play.services`` and the table's
first match starts when the last one sits down. A best-of-N plays further matches at the same
table. When a match of a pairing ends, ``tournaments.receivers`` hears
``games.signals.match_finished`` and enqueues ``tournaments.tasks.match_finished`` after the
commit, which calls :func:`match_finished` here.

Exactly once: every change of a running tournament happens under ``select_for_update`` on the
tournament row, and what to do next is derived from what is stored (the bracket from the slots'
winners, a round's end from its pairings), never advanced in place. So two matches that end at
the same moment are recorded one after the other, and whichever comes second sees both results
and creates the next pairing once; a task delivered twice finds its pairing already decided, or
the next game already dealt, and does nothing. The unique ``(tournament, slot)`` and
``(round, board)`` are the last line of defence.

Lock order: the tournament row, then a pairing row, then (inside ``play.services``) a match row
and its table. Live play never locks a tournament, so there is no cycle.

Channel-layer group ``tournament_group(id)`` = ``"tournament-<id>"`` gets
``{"type": "tournament.changed", "tournament": id, "version": v}`` after each committed change;
each socket re-renders its own viewer's page fragment.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.services import bot_accounts
from durak_site.broadcast import group_send_on_commit
from durak_site.errors import Refused
from durak_site.tasks import enqueue_on_commit
from games.bots import LEVELS
from games.engine import Rules
from games.models import Match, Table
from play import services as games
from play.services import playban
from tournaments import selectors
from tournaments.arena.pairing import Waiting, plan_tables
from tournaments.elimination import Section, bracket_state, champion, final_ranking, series_outcome
from tournaments.elimination import Status as SlotStatus
from tournaments.models import Entry, Pairing, PairingPlayer, ResultCorrection, Round, Tournament
from tournaments.multitable import final_table, ranking_after_final, seat_round
from tournaments.roundrobin import round_robin
from tournaments.seeding import Entrant, seed_order
from tournaments.swiss import pair_swiss

logger = logging.getLogger(__name__)

#: Fields an organiser sets (the form's cleaned data); only these may be passed to create/update.
SETTINGS_FIELDS = (
    "name",
    "description",
    "format",
    "third_place",
    "legs",
    "rounds",
    "final_table",
    "rules",
    "best_of",
    "turn_seconds",
    "min_players",
    "max_players",
    "starts_at",
    "registration_deadline",
    "checkin_minutes",
    "rated",
    "bots_allowed",
    "duration_minutes",
    "berserk",
)


#: The registered name of the arena's pairing pass (``tournaments.tasks.arena_pass``): sent by
#: name, because the tasks import these services.
ARENA_PASS_TASK = "tournaments.arena_pass"


def tournament_group(tournament_id: int) -> str:
    """The channel-layer group of a tournament page's sockets."""
    return f"tournament-{tournament_id}"


class TournamentError(Refused):
    """A refused tournament request (see ``durak_site.errors.Refused``)."""


class NotAllowed(TournamentError):
    """Only the organiser and staff run a tournament."""

    default_message = _("Only the organiser can do that.")


# --- setting up -------------------------------------------------------------------------------


def tournament_create(*, organiser: User, settings: dict[str, Any]) -> Tournament:
    """A new tournament in draft (only its organiser sees it until registration opens).

    Refused past the organiser's limits (``_check_creation_allowed``)."""
    _check_settings(settings)
    with transaction.atomic():
        _check_creation_allowed(organiser)
        return Tournament.objects.create(organiser=organiser, **_only_settings(settings))


#: A tournament in one of these is not over: it counts against ``TOURNAMENTS_OPEN_PER_USER``.
NOT_OVER = (
    Tournament.Status.DRAFT,
    Tournament.Status.REGISTRATION,
    Tournament.Status.CHECK_IN,
    Tournament.Status.RUNNING,
    Tournament.Status.PAUSED,
)


def _check_creation_allowed(organiser: User) -> None:
    """Refuse a new tournament to ``organiser`` who has ``TOURNAMENTS_OPEN_PER_USER`` not yet over
    (drafts included), or set up ``TOURNAMENTS_CREATE_RATE`` = (count, seconds) within the window.

    Why: a tournament is a public page once opened and a standing job for beat; one user set up
    25 in a row. Counted under a lock on the user's row, so two requests at once (on any process)
    cannot both slip through; the first query of the creation, before the tournament's own work."""
    User.objects.select_for_update().filter(pk=organiser.pk).first()
    mine = Tournament.objects.filter(organiser=organiser)
    most = django_settings.TOURNAMENTS_OPEN_PER_USER
    open_now = mine.filter(status__in=NOT_OVER).count()
    if open_now >= most:
        raise TournamentError(
            ngettext(
                "You already have %(count)d tournament that is not over: finish or cancel it "
                "before setting up another.",
                "You already have %(count)d tournaments that are not over: finish or cancel one "
                "before setting up another.",
                open_now,
            )
            % {"count": open_now}
        )
    count, seconds = django_settings.TOURNAMENTS_CREATE_RATE
    recent = mine.filter(created__gte=timezone.now() - timedelta(seconds=seconds)).count()
    if recent >= count:
        hours = max(1, round(seconds / 3600))
        raise TournamentError(
            ngettext(
                "You have set up %(count)d tournaments in the last hour: wait a while before "
                "setting up another.",
                "You have set up %(count)d tournaments in the last %(hours)d hours: wait a while "
                "before setting up another.",
                hours,
            )
            % {"count": recent, "hours": hours}
        )


def tournament_update(*, tournament_id: int, user: User, settings: dict[str, Any]) -> Tournament:
    """Change the settings before the start (draft, registration or check-in)."""
    _check_settings(settings)
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if not (tournament.status == Tournament.Status.DRAFT or tournament.is_open):
            raise TournamentError(_("A tournament can be edited only before it starts."))
        for name, value in _only_settings(settings).items():
            setattr(tournament, name, value)
        if tournament.entries.filter(state=Entry.State.ACTIVE).count() > tournament.max_players:
            raise TournamentError(_("More players have registered than the new maximum."))
        _changed(tournament)
    return tournament


def registration_open(*, tournament_id: int, user: User) -> None:
    """Open registration (from the draft, or reopen it during check-in)."""
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.CHECK_IN):
            raise TournamentError(_("Registration can be opened only before the start."))
        tournament.status = Tournament.Status.REGISTRATION
        _changed(tournament)


def registration_close(*, tournament_id: int, user: User | None) -> None:
    """Close registration: check-in begins (without a check-in window everyone is already in).

    ``user`` is ``None`` when the periodic task closes it at the deadline."""
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise TournamentError(_("Registration is not open."))
        tournament.status = Tournament.Status.CHECK_IN
        _changed(tournament)


def entry_register(*, tournament_id: int, user: User) -> Entry:
    """Register ``user`` (a human; bots are added by the organiser). A running arena takes
    players until its time is up: they join at once and are paired as soon as they can be."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.rated:  # the staff's bar, and the ledger's for games left too early
            try:
                playban.check_rated_allowed(user)
            except playban.RatedPlayBarred as error:
                raise TournamentError(error.message) from None
        if _arena_open(tournament):
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
        checked_in = tournament.checkin_minutes == 0
        if entry is None:
            entry = Entry.objects.create(
                tournament=tournament,
                player=user,
                seed_rating=selectors.seed_rating(user, Rules.from_dict(tournament.rules)),
                checked_in=checked_in,
            )
        else:  # came back after withdrawing
            entry.state = Entry.State.ACTIVE
            entry.checked_in = checked_in
            entry.save(update_fields=["state", "checked_in"])
        _changed(tournament)
    return entry


def bots_add(*, tournament_id: int, user: User, level: str, count: int) -> list[Entry]:
    """Add ``count`` bots of ``level`` (if the tournament allows bots); they are checked in. A
    running arena takes them until its time is up."""
    if level not in LEVELS:
        raise TournamentError(_("There is no bot of that level."))
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if not tournament.bots_allowed:
            raise TournamentError(_("This tournament does not allow bots."))
        joining = _arena_open(tournament)
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
                _arena_enter(tournament, entry)
            _arena_advance(tournament)
        _changed(tournament)
    return added


def entry_withdraw(*, tournament_id: int, user: User) -> None:
    """Withdraw ``user``: before the start the entry just goes; once running, their remaining
    games are forfeited and their opponents go through."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entry = tournament.entries.filter(player=user, state=Entry.State.ACTIVE).first()
        if entry is None:
            raise TournamentError(_("You are not registered."))
        if not (tournament.is_open or tournament.is_live):
            raise TournamentError(_("This tournament is over."))
        _drop(tournament, entry, Entry.State.WITHDRAWN)
        _changed(tournament)


def entry_check_in(*, tournament_id: int, user: User) -> None:
    """Check in during the check-in window (before the start)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if not _checkin_open(tournament):
            raise TournamentError(_("Check-in is not open."))
        entry = tournament.entries.filter(player=user, state=Entry.State.ACTIVE).first()
        if entry is None:
            raise TournamentError(_("You are not registered."))
        if entry.checked_in:
            raise TournamentError(_("You have already checked in."))
        entry.checked_in = True
        entry.save(update_fields=["checked_in"])
        _changed(tournament)


# --- running ----------------------------------------------------------------------------------


def tournament_start(*, tournament_id: int, user: User | None) -> Tournament:
    """Start now: no-shows (not checked in) are dropped, the field is seeded, the first
    pairings are seated.

    ``user`` is ``None`` when the periodic task starts it at its time; then too few players
    cancels the tournament, while an organiser starting by hand is refused and may wait."""
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if not tournament.is_open:
            raise TournamentError(_("Only a tournament in registration or check-in can start."))
        present = tournament.entries.filter(state=Entry.State.ACTIVE, checked_in=True)
        if present.count() < tournament.min_players:
            if user is not None:
                raise TournamentError(
                    _("Too few players have checked in: at least %(count)d are needed.")
                    % {"count": tournament.min_players}
                )
            tournament.status = Tournament.Status.CANCELLED
            tournament.finished_at = timezone.now()
            _changed(tournament)
            return tournament
        tournament.entries.filter(state=Entry.State.ACTIVE, checked_in=False).update(
            state=Entry.State.NO_SHOW
        )
        entries = list(present)
        order = seed_order([Entrant(e.player_id, e.seed_rating) for e in entries], seed=tournament.draw_seed)
        seeds = {player: number for number, player in enumerate(order, start=1)}
        for entry in entries:
            entry.seed = seeds[entry.player_id]
            entry.save(update_fields=["seed"])
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        if tournament.is_arena:
            _arena_begin(tournament, entries)
        _advance(tournament)
        _changed(tournament)
    return tournament


def tournament_pause(*, tournament_id: int, user: User) -> None:
    """Pause: games being played finish and count, but no new game is dealt until resumed."""
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if tournament.status != Tournament.Status.RUNNING:
            raise TournamentError(_("Only a running tournament can be paused."))
        tournament.status = Tournament.Status.PAUSED
        _changed(tournament)


def tournament_resume(*, tournament_id: int, user: User) -> None:
    """Resume a paused tournament: deal every game that waited, then pair what is ready."""
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if tournament.status != Tournament.Status.PAUSED:
            raise TournamentError(_("The tournament is not paused."))
        tournament.status = Tournament.Status.RUNNING
        for pairing in tournament.pairings.filter(status=Pairing.Status.PLAYING):
            _continue_pairing(tournament, pairing)
        _advance(tournament)
        _changed(tournament)


def tournament_cancel(*, tournament_id: int, user: User) -> None:
    """Cancel before or during play; games being played finish but no longer count."""
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("This tournament is already over."))
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = timezone.now()
        _changed(tournament)


def tournament_finish(*, tournament_id: int, user: User) -> None:
    """End a running or paused tournament now, with the standings as they are (an elimination
    bracket gets its champion only if it was decided). An arena's time runs out now instead:
    nobody is paired again, and the games in play finish and count."""
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if not tournament.is_live:
            raise TournamentError(_("Only a running or paused tournament can be finished."))
        if tournament.is_arena:
            now = timezone.now()
            if tournament.ends_at is None or tournament.ends_at > now:
                tournament.ends_at = now
            _arena_advance(tournament)
        else:
            _finish(tournament)
        _changed(tournament)


def player_remove(*, tournament_id: int, user: User, player_id: int) -> None:
    """Remove a player: before the start their entry goes; once running their remaining games
    are forfeited and their opponents go through."""
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        # ``player__pk``, not ``player_id``: a pk lookup turns an id beyond the column's range
        # (it comes from the URL) into "no row", where SQLite would raise OverflowError.
        entry = tournament.entries.filter(player__pk=player_id, state=Entry.State.ACTIVE).first()
        if entry is None:
            raise TournamentError(_("That player is not in the tournament."))
        if not (tournament.is_open or tournament.is_live):
            raise TournamentError(_("This tournament is over."))
        _drop(tournament, entry, Entry.State.REMOVED)
        _changed(tournament)


def result_correct(*, pairing_id: int, user: User, score: float, reason: str) -> ResultCorrection:
    """Set a two-player pairing's result by hand (``score`` of its first player: 1, 0.5 or 0)
    and log it with ``reason``. An elimination result can be changed only until the winner has
    been paired again, and has no draws."""
    reason = reason.strip()
    if not reason:
        raise TournamentError(_("Give a reason for the correction."))
    tournament_id = Pairing.objects.filter(pk=pairing_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError(_("There is no such pairing."))
    with transaction.atomic():
        tournament = _lock(tournament_id, user)
        if not tournament.is_live:
            raise TournamentError(_("Results can be corrected only while the tournament runs."))
        pairing = Pairing.objects.select_for_update().get(pk=pairing_id)
        players = [p.user_id for p in pairing.players.all()]
        if tournament.is_multi_table or tournament.is_arena or len(players) != 2:
            raise TournamentError(_("Only results of two-player pairings can be corrected here."))
        if score not in (0.0, 0.5, 1.0) or (tournament.is_elimination and score == 0.5):
            raise TournamentError(_("That result is not possible here."))
        if tournament.is_elimination and _played_on(tournament, pairing):
            raise TournamentError(_("The winner has already been paired again: this result stands."))
        before = _result_of(pairing)
        _decide(pairing, players, score, forfeit=pairing.forfeit)
        correction = ResultCorrection.objects.create(
            pairing=pairing, by=user, before=before, after=_result_of(pairing), reason=reason
        )
        if tournament.status == Tournament.Status.RUNNING:
            _advance(tournament)
        _changed(tournament)
    return correction


def match_finished(*, match_id: int) -> bool:
    """Record a finished match of a pairing and move the tournament on (the Celery task's body).

    Returns False, doing nothing, when the match is not a tournament's, its pairing is already
    decided, the tournament is not live, or this match was already recorded."""
    found = Pairing.objects.filter(table__matches=match_id).values_list("pk", "tournament_id").first()
    if found is None:
        return False
    pairing_id, tournament_id = found
    with transaction.atomic():
        tournament = _lock(tournament_id)
        pairing = Pairing.objects.select_for_update().get(pk=pairing_id)
        if pairing.is_done and tournament.is_arena:
            _leave_table(pairing)  # a game someone dealt at it afterwards ("play again") ended
        if pairing.is_done or not tournament.is_live:
            return False
        if not _continue_pairing(tournament, pairing):
            return False
        if tournament.status == Tournament.Status.RUNNING:
            _advance(tournament)
        _changed(tournament)
    return True


def tournaments_tick(*, now: datetime | None = None) -> int:
    """The periodic task's body: close registration at its deadline or when the check-in
    window opens, start tournaments whose time has come, run a pairing pass in every arena (and
    end those whose time is up), and deal any game of a running pairing whose task was lost.
    Returns how many tournaments it changed."""
    now = now or timezone.now()
    changed = 0
    for tournament in Tournament.objects.filter(status=Tournament.Status.REGISTRATION):
        opens = tournament.starts_at - timedelta(minutes=tournament.checkin_minutes)
        deadline = tournament.registration_deadline
        if now >= opens or (deadline is not None and now >= deadline):
            changed += _quietly(registration_close, tournament_id=tournament.pk, user=None)
    due = Tournament.objects.filter(
        status__in=(Tournament.Status.REGISTRATION, Tournament.Status.CHECK_IN), starts_at__lte=now
    )
    for pk in due.values_list("pk", flat=True):
        changed += _quietly(tournament_start, tournament_id=pk, user=None)
    arenas = Tournament.objects.filter(
        format=Tournament.Format.ARENA, status__in=(Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    )
    for pk in arenas.values_list("pk", flat=True):
        changed += arena_pass(tournament_id=pk)
    stuck = (
        Pairing.objects.filter(status=Pairing.Status.PLAYING, tournament__status=Tournament.Status.RUNNING)
        .exclude(table__matches__status=Match.Status.ACTIVE)
        .exclude(table__status=Table.Status.DEALING)  # its deal comes with its players' values
    )
    for pairing_id, tournament_id in stuck.values_list("pk", "tournament_id").distinct():
        with transaction.atomic():
            tournament = _lock(tournament_id)
            pairing = Pairing.objects.select_for_update().get(pk=pairing_id)
            if pairing.is_done or tournament.status != Tournament.Status.RUNNING:
                continue
            if _continue_pairing(tournament, pairing):
                _advance(tournament)
                _changed(tournament)
                changed += 1
    return changed


def _quietly(service: Any, **kwargs: Any) -> int:
    """Call ``service`` for the periodic task: 1 if it did it, 0 if the organiser got there
    first (the status changed between the scan and the lock)."""
    try:
        service(**kwargs)
    except TournamentError:
        return 0
    return 1


# --- arenas ------------------------------------------------------------------------------------

#: How long an arena may run, in minutes.
MIN_ARENA_MINUTES = 5
MAX_ARENA_MINUTES = 360


def arena_pause(*, tournament_id: int, user: User) -> None:
    """Stop being paired in an arena (a game in play goes on and counts; the points stay)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entry = _arena_entry(tournament, user)
        if entry.paused:
            raise TournamentError(_("You have already paused."))
        entry.paused = True
        entry.save(update_fields=["paused"])
        _changed(tournament)


def arena_resume(*, tournament_id: int, user: User) -> None:
    """Come back from a pause: free to play from now, paired as soon as possible."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entry = _arena_entry(tournament, user)
        if not entry.paused:
            raise TournamentError(_("You are not paused."))
        entry.paused = False
        entry.waiting_since = timezone.now()
        entry.save(update_fields=["paused", "waiting_since"])
        _arena_advance(tournament)
        _changed(tournament)


def arena_berserk(*, tournament_id: int, user: User) -> None:
    """Go berserk in the arena game ``user`` is playing: their own turn timer is halved
    (``play.services.match_halve_timer``: once, before their first move), for a bonus
    point if they do not lose it."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if not (tournament.is_arena and tournament.berserk):
            raise TournamentError(_("This tournament does not allow berserk."))
        if not tournament.is_live:
            raise TournamentError(_("This arena is not running."))
        row = (
            PairingPlayer.objects.select_for_update()
            .filter(pairing__tournament=tournament, pairing__status=Pairing.Status.PLAYING, user=user)
            .select_related("pairing")
            .first()
        )
        if row is None:
            raise TournamentError(_("You are not playing a game of this arena."))
        if row.berserk:
            raise TournamentError(_("You have already gone berserk in this game."))
        active = Match.objects.filter(table__tournament_pairing=row.pairing, status=Match.Status.ACTIVE)
        match = active.first()
        if match is None:
            raise TournamentError(_("Your game has not been dealt yet."))
        try:
            games.match_halve_timer(match_id=match.pk, user=user)
        except games.GameError as error:
            raise TournamentError(error.message) from None
        row.berserk = True
        row.save(update_fields=["berserk"])
        _changed(tournament)


def match_dealt(*, match_id: int) -> bool:
    """A game was dealt at a tournament's table after its wait for the players' values (the body
    of ``tournaments.tasks.match_dealt``): the tournament's page shows it with a new version, and
    an arena player's page goes to it. Returns False when the match is not a tournament's."""
    tournament_id = (
        Pairing.objects.filter(table__matches=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return False
    with transaction.atomic():
        _changed(_lock(tournament_id))
    return True


def arena_pass(*, tournament_id: int) -> int:
    """One pairing pass of an arena (the body of ``tournaments.tasks.arena_pass`` and of the
    tick): pair whoever can be paired, or finish the arena once its time is up and its last game
    is recorded. Returns 1 if it changed anything; a pass with nothing to do does nothing, so a
    task delivered twice or late is harmless."""
    with transaction.atomic():
        try:
            tournament = _lock(tournament_id)
        except TournamentError:
            return 0
        if not (tournament.is_arena and tournament.is_live) or not _arena_advance(tournament):
            return 0
        _changed(tournament)
    return 1


def _arena_open(tournament: Tournament) -> bool:
    """Whether a running (or paused) arena still takes players: until its time is up."""
    return (
        tournament.is_arena
        and tournament.is_live
        and tournament.ends_at is not None
        and timezone.now() < tournament.ends_at
    )


def _arena_entry(tournament: Tournament, user: User) -> Entry:
    """``user``'s entry in a live arena, or a refusal."""
    if not tournament.is_arena:
        raise TournamentError(_("Only an arena's players pause and come back."))
    if not tournament.is_live:
        raise TournamentError(_("This arena is not running."))
    entry = tournament.entries.filter(player=user, state=Entry.State.ACTIVE, seed__isnull=False).first()
    if entry is None:
        raise TournamentError(_("You are not playing in this arena."))
    return entry


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
    if entry is None:
        entry = Entry.objects.create(
            tournament=tournament,
            player=user,
            seed_rating=selectors.seed_rating(user, Rules.from_dict(tournament.rules)),
            checked_in=True,
        )
    else:
        entry.state = Entry.State.ACTIVE
        entry.checked_in = True
        entry.save(update_fields=["state", "checked_in"])
    _arena_enter(tournament, entry)
    _arena_advance(tournament)
    _changed(tournament)
    return entry


def _arena_enter(tournament: Tournament, entry: Entry) -> None:
    """A player enters a running arena: seeded after the others, free to play from now."""
    if entry.seed is None:
        entry.seed = (tournament.entries.aggregate(last=Max("seed"))["last"] or 0) + 1
    entry.paused = False
    entry.waiting_since = timezone.now()
    entry.save(update_fields=["seed", "paused", "waiting_since"])


def _arena_begin(tournament: Tournament, entries: Sequence[Entry]) -> None:
    """The arena starts: its end is set, everyone present is free from now, and a pass is
    queued for the end (the tick is the safety net)."""
    now = tournament.started_at or timezone.now()
    tournament.ends_at = now + timedelta(minutes=tournament.duration_minutes)
    for entry in entries:
        entry.waiting_since = now
        entry.save(update_fields=["waiting_since"])
    Round.objects.get_or_create(tournament=tournament, number=1)
    enqueue_on_commit(ARENA_PASS_TASK, tournament.pk, countdown=tournament.duration_minutes * 60 + 1)


def _arena_advance(tournament: Tournament) -> bool:
    """Pair whoever can be paired (running, before the end); once the time is up and no game is
    being played, finish. Returns whether anything changed."""
    now = timezone.now()
    if tournament.ends_at is not None and now >= tournament.ends_at:
        if tournament.pairings.filter(status=Pairing.Status.PLAYING).exists():
            return False  # the games in play finish and count; the last one finishes the arena
        _finish(tournament)
        return True
    if tournament.status != Tournament.Status.RUNNING:
        return False
    return _arena_pair(tournament, now)


def _arena_pair(tournament: Tournament, now: datetime) -> bool:
    """Seat the arena's free players (``tournaments.arena.pairing.plan_tables``); queue the next
    pass for when a player left waiting will have waited long enough."""
    entries = list(tournament.entries.filter(state=Entry.State.ACTIVE, paused=False, seed__isnull=False))
    playing = set(
        PairingPlayer.objects.filter(
            pairing__tournament=tournament, pairing__status=Pairing.Status.PLAYING
        ).values_list("user_id", flat=True)
    )
    free = [e for e in entries if e.player_id not in playing]
    busy = selectors.busy_players(e.player_id for e in free)  # a game elsewhere on the site
    if tournament.rated:  # a player barred from rated play since joining waits out the bar
        busy |= playban.rated_barred_users(e.player_id for e in free)
    free = [e for e in free if e.player_id not in busy]
    if len(free) < 2:
        return False
    order = selectors.arena_leaderboard(tournament)
    ranks = {line.player: position for position, line in enumerate(order, start=1)}
    waiting = [
        Waiting(
            e.player_id,
            ranks.get(e.player_id, len(ranks) + 1),
            max(0.0, (now - (e.waiting_since or now)).total_seconds()),
        )
        for e in free
    ]
    size = Rules.from_dict(tournament.rules).players
    plan = plan_tables(waiting, selectors.arena_last_opponents(tournament), size=size)
    if plan.recheck is not None:
        enqueue_on_commit(ARENA_PASS_TASK, tournament.pk, countdown=plan.recheck + 0.5)
    if not plan.tables:
        return False
    round_, _created = Round.objects.get_or_create(tournament=tournament, number=1)
    board = (round_.pairings.aggregate(last=Max("board"))["last"] or 0) + 1
    for offset, table in enumerate(plan.tables):
        _new_pairing(tournament, round_, board + offset, table)
    return True


def _arena_record(tournament: Tournament, pairing: Pairing, match: Match | None) -> bool:
    """An arena pairing's one game ended: its places count and its players are free again
    (anyone whose seat timed out into the autopilot is paused: they were away). A pairing whose
    game never finished (aborted) is dealt again while the arena runs, and void after."""
    if match is None:
        if _arena_open(tournament):
            if tournament.status != Tournament.Status.RUNNING or pairing.table_id is None:
                return False  # paused: dealt again when the organiser resumes
            try:
                games.match_start(table_id=pairing.table_id)
            except games.GameError:
                logger.info("arena pairing %s is void: its table cannot deal", pairing.pk)
            else:
                return True
        pairing.status = Pairing.Status.DONE
        pairing.finished_at = timezone.now()
        pairing.save(update_fields=["status", "finished_at"])
        _arena_free(tournament, pairing, away=set())
        _leave_table(pairing)
        return True
    _record_table(pairing, match)
    away = {p.user_id for p in match.players.all() if p.forfeited and not p.resigned}
    _arena_free(tournament, pairing, away=away)
    _leave_table(pairing)
    return True


def _arena_free(tournament: Tournament, pairing: Pairing, *, away: set[int]) -> None:
    now = timezone.now()
    users = [row.user_id for row in pairing.players.all()]
    entries = tournament.entries.filter(player_id__in=users, state=Entry.State.ACTIVE)
    for entry in entries.select_related("player"):
        entry.waiting_since = now
        entry.paused = entry.paused or (entry.player_id in away and not entry.player.is_bot)
        entry.save(update_fields=["waiting_since", "paused"])


def _leave_table(pairing: Pairing) -> None:
    """Everyone leaves the table of an arena pairing once its game is over, which closes it, so
    no further game ("play again") is dealt there; one being played is left when it ends."""
    if pairing.table_id is None:
        return
    for user in User.objects.filter(seats__table_id=pairing.table_id):
        try:
            games.seat_leave(table_id=pairing.table_id, user=user)
        except games.GameError:
            logger.info("table %s: %s stays seated while a game is played", pairing.table_id, user.pk)


# --- who may run tournaments -------------------------------------------------------------------

#: The group whose members may run anyone's tournament (``selectors.may_run``).
DIRECTORS_GROUP = "Tournament directors"


def directors_group_ensure(*, using: str = "default") -> Group:
    """The "Tournament directors" group holding ``tournaments.run_any_tournament`` (made when
    missing; run after every ``migrate``). Staff are put in it in the admin; the "Club staff"
    group, which only views, does not hold the permission."""
    content_type = ContentType.objects.db_manager(using).get_for_model(Tournament)
    permission, _created = Permission.objects.using(using).get_or_create(
        codename="run_any_tournament",
        content_type=content_type,
        defaults={"name": "Can run any organiser's tournament"},
    )
    group, _created = Group.objects.using(using).get_or_create(name=DIRECTORS_GROUP)
    group.permissions.add(permission)
    return group


# --- internals: locking and bookkeeping ---------------------------------------------------------


def _lock(tournament_id: int, user: User | None = None) -> Tournament:
    """The tournament row, locked; with ``user``, refused unless they may run it."""
    try:
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError(_("There is no such tournament.")) from None
    if user is not None and not selectors.may_run(tournament, user):
        raise NotAllowed()
    return tournament


def _changed(tournament: Tournament) -> None:
    """Save the tournament with a new version and tell its page after the commit."""
    tournament.version += 1
    tournament.save()
    event = {"type": "tournament.changed", "tournament": tournament.pk, "version": tournament.version}
    group_send_on_commit(tournament_group(tournament.pk), event)


def _only_settings(settings: dict[str, Any]) -> dict[str, Any]:
    return {name: settings[name] for name in SETTINGS_FIELDS if name in settings}


def _check_settings(settings: dict[str, Any]) -> None:
    """The service's own guard for what the form already checks (a task or the shell may call)."""
    try:
        rules = Rules.from_dict(settings["rules"])
    except (KeyError, TypeError, ValueError):
        raise TournamentError(_("These table rules are not possible.")) from None
    if rules.teams:
        raise TournamentError(_("Tournaments are played without teams."))
    if settings.get("rated"):
        try:
            games.validate_rated_rules(rules)
        except games.RatedRulesError as error:
            raise TournamentError(error.message) from None
    if settings.get("min_players", 2) < 2 or settings.get("max_players", 2) < settings.get("min_players", 2):
        raise TournamentError(_("The player limits are not possible."))
    if settings.get("format") == Tournament.Format.ARENA and not (
        MIN_ARENA_MINUTES <= settings.get("duration_minutes", 0) <= MAX_ARENA_MINUTES
    ):
        limits = {"low": MIN_ARENA_MINUTES, "high": MAX_ARENA_MINUTES}
        raise TournamentError(_("An arena runs from %(low)d to %(high)d minutes.") % limits)


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
    as its fool), then the event moves on."""
    entry.state = state
    entry.save(update_fields=["state"])
    if not tournament.is_live:
        return
    player = entry.player
    for pairing in Pairing.objects.select_for_update().filter(
        tournament=tournament, status=Pairing.Status.PLAYING, players__user=player
    ):
        players = [p.user_id for p in pairing.players.all()]
        if not (tournament.is_multi_table or tournament.is_arena):
            _decide(pairing, players, 0.0 if players[0] == player.pk else 1.0, forfeit=True)
        _resign(pairing, player)
    if tournament.status == Tournament.Status.RUNNING:
        _advance(tournament)


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


def _result_of(pairing: Pairing) -> dict[str, Any]:
    """A pairing's result as the corrections log keeps it."""
    return {
        "status": pairing.status,
        "score": pairing.score,
        "winner": pairing.winner_id,
        "forfeit": pairing.forfeit,
        "games": list(pairing.games),
    }


def _decide(pairing: Pairing, players: Sequence[int], score: float, *, forfeit: bool) -> None:
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


def _played_on(tournament: Tournament, pairing: Pairing) -> bool:
    """Whether a pairing fed by this elimination slot already exists."""
    plan = selectors.bracket_plan(tournament)
    if plan is None or not pairing.slot:
        return False
    slot = plan.slot(pairing.slot)
    fed = [target[0] for target in (slot.winner_to, slot.loser_to) if target is not None]
    if any(s.reset for s in plan.slots) and slot.id == "GF":
        fed.append("GF2")
    return tournament.pairings.filter(slot__in=fed).exists()


# --- internals: pairings and their games ---------------------------------------------------------


def _continue_pairing(tournament: Tournament, pairing: Pairing) -> bool:
    """Read the pairing's finished games; decide it when the series is over, otherwise deal
    its next game (only while the tournament runs). Returns whether anything changed."""
    if pairing.table_id is None:
        return False
    matches = list(
        Match.objects.filter(table_id=pairing.table_id).order_by("number").prefetch_related("players")
    )
    if any(m.status == Match.Status.ACTIVE for m in matches):
        return False
    finished = [m for m in matches if m.status == Match.Status.FINISHED]
    if tournament.is_arena:
        return _arena_record(tournament, pairing, finished[-1] if finished else None)
    if tournament.is_multi_table:
        if not finished:
            return _deal(tournament, pairing)
        _record_table(pairing, finished[-1])
        return True
    users = [p.user_id for p in pairing.players.all()]
    scores = [_score_of(match, users[0]) for match in finished]
    outcome = series_outcome(scores, tournament.best_of, allow_draw=not tournament.is_elimination)
    recorded = scores != pairing.games
    pairing.games = scores
    if not outcome.finished:
        if recorded:
            pairing.save(update_fields=["games"])
        return _deal(tournament, pairing) or recorded
    final = {0: 1.0, 1: 0.0}.get(outcome.winner, 0.5) if outcome.winner is not None else 0.5
    _decide(pairing, users, final, forfeit=False)
    return True


def _deal(tournament: Tournament, pairing: Pairing) -> bool:
    """Deal the pairing's next game at its table (not while paused). A player who left the
    table between games forfeits the pairing."""
    if tournament.status != Tournament.Status.RUNNING or pairing.table_id is None:
        return False
    try:
        games.match_start(table_id=pairing.table_id)
    except games.GameError:
        seated = set(Table.objects.get(pk=pairing.table_id).seats.values_list("user_id", flat=True))
        users = [p.user_id for p in pairing.players.all()]
        gone = [u for u in users if u not in seated]
        if len(users) != 2 or not gone:
            raise
        _decide(pairing, users, 0.5 if len(gone) == 2 else (0.0 if gone == [users[0]] else 1.0), forfeit=True)
    return True


def _score_of(match: Match, first: int) -> float:
    """The first player's score in a finished two-player match: 1 won, 0.5 drawn, 0 fool."""
    result = match.result or {}
    seat = next(p.seat for p in match.players.all() if p.user_id == first)
    if result.get("draw") or result.get("fool") is None:
        return 0.5
    return 0.0 if result["fool"] == seat else 1.0


def _record_table(pairing: Pairing, match: Match) -> None:
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


def _new_pairing(
    tournament: Tournament, round_: Round, board: int, players: Sequence[int], *, slot: str = ""
) -> Pairing:
    """Create a pairing and seat its players at a new private table (the first game starts
    when the last one sits, unless the tournament is paused: then ``_deal`` waits)."""
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


def _bye(round_: Round, board: int, player: int, *, winner_score: bool = True) -> Pairing:
    """A bye: the player scores without playing."""
    pairing = Pairing.objects.create(
        tournament=round_.tournament,
        round=round_,
        board=board,
        status=Pairing.Status.BYE,
        winner_id=player if winner_score else None,
        finished_at=timezone.now(),
    )
    PairingPlayer.objects.create(pairing=pairing, position=0, user_id=player, place=1)
    return pairing


def _forfeited(round_: Round, board: int, pair: tuple[int, int], out: set[int]) -> Pairing:
    """A scheduled pairing with a player already out: decided without playing."""
    pairing = Pairing.objects.create(tournament=round_.tournament, round=round_, board=board)
    PairingPlayer.objects.bulk_create(
        PairingPlayer(pairing=pairing, position=i, user_id=p) for i, p in enumerate(pair)
    )
    a_out, b_out = (p in out for p in pair)
    _decide(pairing, pair, 0.5 if a_out and b_out else (0.0 if a_out else 1.0), forfeit=True)
    return pairing


# --- internals: moving the event on ---------------------------------------------------------


def _advance(tournament: Tournament) -> None:
    """Create whatever is ready to be played now, or finish the tournament (running only)."""
    if tournament.is_arena:
        _arena_advance(tournament)
        return
    if tournament.is_elimination:
        _advance_bracket(tournament)
        return
    while True:
        last = tournament.round_set.order_by("-number").first()
        if last is not None and last.pairings.filter(status=Pairing.Status.PLAYING).exists():
            return
        if last is not None and not last.finished:
            last.finished = True
            last.save(update_fields=["finished"])
        number = last.number + 1 if last else 1
        created = _next_round(tournament, number)
        if created is None:
            _finish(tournament)
            return
        if created.pairings.filter(status=Pairing.Status.PLAYING).exists():
            return


def _advance_bracket(tournament: Tournament) -> None:
    plan = selectors.bracket_plan(tournament)
    assert plan is not None
    winners, out = selectors.bracket_inputs(tournament)
    if champion(plan, winners, out) is not None:
        _finish(tournament)
        return
    existing = set(tournament.pairings.values_list("slot", flat=True))
    seed_of = {player: number for number, player in enumerate(plan.seeds, start=1)}
    for state in bracket_state(plan, winners, out).values():
        if state.status is not SlotStatus.READY or state.slot.id in existing:
            continue
        a, b = state.players
        assert a is not None and b is not None
        if state.slot.section is not Section.GRAND_FINAL and seed_of[b] < seed_of[a]:
            a, b = b, a  # the higher seed on side 0 (it goes through on endless drawn deciders)
        round_, _created = Round.objects.get_or_create(tournament=tournament, number=state.slot.stage)
        board = round_.pairings.count() + 1
        _new_pairing(tournament, round_, board, (a, b), slot=state.slot.id)


def _next_round(tournament: Tournament, number: int) -> Round | None:
    """Pair round ``number`` of a round robin, Swiss or multi-table event; ``None`` when the
    event has no more rounds."""
    entries = list(tournament.entries.filter(seed__isnull=False).order_by("seed"))
    active = [e for e in entries if e.is_active]
    out = {e.player_id for e in entries if not e.is_active}
    seeded = [e.player_id for e in entries]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        schedule = round_robin(seeded, legs=tournament.legs)
        if number > len(schedule):
            return None
        planned = schedule[number - 1]
        round_ = Round.objects.create(tournament=tournament, number=number)
        for board, pair in enumerate(planned.pairs, start=1):
            if out & set(pair):
                _forfeited(round_, board, pair, out)
            else:
                _new_pairing(tournament, round_, board, pair)
        if planned.bye is not None and planned.bye not in out:
            _bye(round_, len(planned.pairs) + 1, planned.bye)
        return round_
    if len(active) < 2:
        return None
    entrants = [Entrant(e.player_id, e.seed_rating) for e in active]
    if tournament.format == Tournament.Format.SWISS:
        if number > tournament.rounds:
            return None
        games_so_far, byes = selectors.two_player_results(tournament, for_pairing=True)
        try:
            paired = pair_swiss(entrants, games_so_far, byes, seed=tournament.draw_seed)
        except ValueError:
            return None  # everyone has had a bye: no more rounds can be paired
        round_ = Round.objects.create(tournament=tournament, number=number)
        for board, pair in enumerate(paired.pairs, start=1):
            _new_pairing(tournament, round_, board, pair)
        if paired.bye is not None:
            _bye(round_, len(paired.pairs) + 1, paired.bye)
        return round_
    return _next_table_round(tournament, number, entrants)


def _next_table_round(tournament: Tournament, number: int, entrants: list[Entrant]) -> Round | None:
    max_size = Rules.from_dict(tournament.rules).players
    history = selectors.table_results(tournament)
    if number <= tournament.rounds:
        try:
            tables = seat_round(entrants, history, max_size=max_size, seed=tournament.draw_seed)
        except ValueError:  # a field that cannot sit at tables of three or more
            tables = seat_round(entrants, history, min_size=2, max_size=max_size, seed=tournament.draw_seed)
        round_ = Round.objects.create(tournament=tournament, number=number)
        for board, table in enumerate(tables, start=1):
            _new_pairing(tournament, round_, board, table)
        return round_
    k = min(tournament.final_table, max_size, len(entrants))
    if k < 2 or tournament.round_set.filter(final=True).exists():
        return None
    order = [s.player for s in selectors.standings(tournament)]
    round_ = Round.objects.create(tournament=tournament, number=number, final=True)
    _new_pairing(tournament, round_, 1, final_table(order, k, max_size=max_size))
    return round_


def _finish(tournament: Tournament) -> None:
    """Write places and the winner, and close the tournament."""
    places = _final_places(tournament)
    for entry in tournament.entries.filter(seed__isnull=False):
        entry.place = places.get(entry.player_id)
        entry.save(update_fields=["place"])
    winners = [player for player, place in places.items() if place == 1]
    tournament.winner_id = winners[0] if len(winners) == 1 else None
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    # Every table of the tournament is left, which closes it: none stays "playing" afterwards.
    for pairing in tournament.pairings.filter(table__isnull=False).exclude(table__status=Table.Status.CLOSED):
        _leave_table(pairing)


def _final_places(tournament: Tournament) -> dict[int, int]:
    if tournament.is_arena:
        return {line.player: line.rank for line in selectors.arena_leaderboard(tournament)}
    if tournament.is_elimination:
        plan = selectors.bracket_plan(tournament)
        assert plan is not None
        winners, out = selectors.bracket_inputs(tournament)
        if champion(plan, winners, out) is None:
            return {}
        return final_ranking(plan, winners, out)
    standings = selectors.standings(tournament)
    final = tournament.round_set.filter(final=True).first()
    if final is not None and not final.pairings.filter(status=Pairing.Status.PLAYING).exists():
        table = selectors.table_results(tournament, rounds=[final])
        if table:
            order = ranking_after_final([s.player for s in standings], table[0])
            return {player: place for place, player in enumerate(order, start=1)}
    return {s.player: s.rank for s in standings}
