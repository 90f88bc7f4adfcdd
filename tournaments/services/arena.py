"""The arena's running: players paired again as soon as their game ends, for a fixed time.

``arena_advance`` is the pairing pass: ``_pair`` seats the arena's free players at new tables by
the pure rule ``tournaments.formats.arena.pairing.plan_tables`` (longest-waiting first, close on
the leaderboard, no immediate rematch while someone else can be waited for), and queues the next
pass for when a player left waiting will have waited long enough; once the time is up and no
game is being played, the arena ends. A pass runs whenever a player becomes free, as a task
(``arena_pass``, sent by name: the tasks import these services) and on the tick; a pass with
nothing to do does nothing, so one delivered twice or late is harmless. Players pause, come back
and go berserk here; they join and withdraw through ``entries``. ``docs/arena.md`` has the rules
with worked examples.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from durak_site.tasks import enqueue_on_commit
from games.engine import Rules
from games.models import Match
from play import services as games
from play.services import playban
from tournaments import selectors
from tournaments.formats.arena.pairing import Waiting, plan_tables
from tournaments.models import Entry, Pairing, PairingPlayer, Round, Tournament
from tournaments.services.errors import TournamentError
from tournaments.services.finish import tournament_end
from tournaments.services.locking import tournament_changed, tournament_lock
from tournaments.services.pairings import pairing_create, pairing_record_game, pairing_table_leave

logger = logging.getLogger(__name__)


#: The registered name of the arena's pairing pass (``tournaments.tasks.arena_pass``): sent by
#: name, because the tasks import these services.
ARENA_PASS_TASK = "tournaments.arena_pass"


def arena_pause(*, tournament_id: int, user: User) -> None:
    """Stop being paired in an arena (a game in play goes on and counts; the points stay)."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        entry = _entry(tournament, user)
        if entry.paused:
            raise TournamentError(_("You have already paused."))
        entry.paused = True
        entry.save(update_fields=["paused"])
        tournament_changed(tournament)


def arena_resume(*, tournament_id: int, user: User) -> None:
    """Come back from a pause: free to play from now, paired as soon as possible."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        entry = _entry(tournament, user)
        if not entry.paused:
            raise TournamentError(_("You are not paused."))
        entry.paused = False
        entry.waiting_since = timezone.now()
        entry.save(update_fields=["paused", "waiting_since"])
        arena_advance(tournament)
        tournament_changed(tournament)


def arena_berserk(*, tournament_id: int, user: User) -> None:
    """Go berserk in the arena game ``user`` is playing: their own turn timer is halved
    (``play.services.match_halve_timer``: once, before their first move), for a bonus
    point if they do not lose it."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
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
        tournament_changed(tournament)


def arena_pass(*, tournament_id: int) -> int:
    """One pairing pass of an arena (the body of ``tournaments.tasks.arena_pass`` and of the
    tick): pair whoever can be paired, or finish the arena once its time is up and its last game
    is recorded. Returns 1 if it changed anything; a pass with nothing to do does nothing, so a
    task delivered twice or late is harmless."""
    with transaction.atomic():
        try:
            tournament = tournament_lock(tournament_id)
        except TournamentError:
            return 0
        if not (tournament.is_arena and tournament.is_live) or not arena_advance(tournament):
            return 0
        tournament_changed(tournament)
    return 1


def arena_takes_players(tournament: Tournament) -> bool:
    """Whether a running (or paused) arena still takes players: until its time is up."""
    return (
        tournament.is_arena
        and tournament.is_live
        and tournament.ends_at is not None
        and timezone.now() < tournament.ends_at
    )


def _entry(tournament: Tournament, user: User) -> Entry:
    """``user``'s entry in a live arena, or a refusal."""
    if not tournament.is_arena:
        raise TournamentError(_("Only an arena's players pause and come back."))
    if not tournament.is_live:
        raise TournamentError(_("This arena is not running."))
    entry = tournament.entries.filter(player=user, state=Entry.State.ACTIVE, seed__isnull=False).first()
    if entry is None:
        raise TournamentError(_("You are not playing in this arena."))
    return entry


def arena_enter(tournament: Tournament, entry: Entry) -> None:
    """A player enters a running arena: seeded after the others, free to play from now."""
    if entry.seed is None:
        entry.seed = (tournament.entries.aggregate(last=Max("seed"))["last"] or 0) + 1
    entry.paused = False
    entry.waiting_since = timezone.now()
    entry.save(update_fields=["seed", "paused", "waiting_since"])


def arena_begin(tournament: Tournament, entries: Sequence[Entry]) -> None:
    """The arena starts: its end is set, everyone present is free from now, and a pass is
    queued for the end (the tick is the safety net)."""
    now = tournament.started_at or timezone.now()
    tournament.ends_at = now + timedelta(minutes=tournament.duration_minutes)
    for entry in entries:
        entry.waiting_since = now
        entry.save(update_fields=["waiting_since"])
    Round.objects.get_or_create(tournament=tournament, number=1)
    enqueue_on_commit(ARENA_PASS_TASK, tournament.pk, countdown=tournament.duration_minutes * 60 + 1)


def arena_advance(tournament: Tournament) -> bool:
    """Pair whoever can be paired (running, before the end); once the time is up and no game is
    being played, finish. Returns whether anything changed."""
    now = timezone.now()
    if tournament.ends_at is not None and now >= tournament.ends_at:
        if tournament.pairings.filter(status=Pairing.Status.PLAYING).exists():
            return False  # the games in play finish and count; the last one finishes the arena
        tournament_end(tournament)
        return True
    if tournament.status != Tournament.Status.RUNNING:
        return False
    return _pair(tournament, now)


def _pair(tournament: Tournament, now: datetime) -> bool:
    """Seat the arena's free players (``tournaments.formats.arena.pairing.plan_tables``); queue the next
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
        pairing_create(tournament, round_, board + offset, table)
    return True


def arena_record(tournament: Tournament, pairing: Pairing, match: Match | None) -> bool:
    """An arena pairing's one game ended: its places count and its players are free again
    (anyone whose seat timed out into the autopilot is paused: they were away). A pairing whose
    game never finished (aborted) is dealt again while the arena runs, and void after."""
    if match is None:
        if arena_takes_players(tournament):
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
        _free(tournament, pairing, away=set())
        pairing_table_leave(pairing)
        return True
    pairing_record_game(pairing, match)
    away = {p.user_id for p in match.players.all() if p.forfeited and not p.resigned}
    _free(tournament, pairing, away=away)
    pairing_table_leave(pairing)
    return True


def _free(tournament: Tournament, pairing: Pairing, *, away: set[int]) -> None:
    now = timezone.now()
    users = [row.user_id for row in pairing.players.all()]
    entries = tournament.entries.filter(player_id__in=users, state=Entry.State.ACTIVE)
    for entry in entries.select_related("player"):
        entry.waiting_since = now
        entry.paused = entry.paused or (entry.player_id in away and not entry.player.is_bot)
        entry.save(update_fields=["waiting_since", "paused"])
