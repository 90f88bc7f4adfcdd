"""The organiser's commands of a tournament under way: start, pause, resume, cancel, finish, and
a result corrected by hand (logged as a ``ResultCorrection``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tournaments import selectors
from tournaments.formats.favourites import Entrant, seed_order
from tournaments.models import Entry, Pairing, ResultCorrection, Tournament
from tournaments.services.arena import arena_advance, arena_begin
from tournaments.services.errors import TournamentError
from tournaments.services.finish import tournament_end
from tournaments.services.locking import tournament_changed, tournament_lock
from tournaments.services.pairings import pairing_decide
from tournaments.services.progress import pairing_continue, tournament_advance


def tournament_start(*, tournament_id: int, user: User | None) -> Tournament:
    """Start now: no-shows (not checked in) are dropped, the field is seeded, the first
    pairings are seated.

    ``user`` is ``None`` when the periodic task starts it at its time; then too few players
    cancels the tournament, while an organiser starting by hand is refused and may wait."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
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
            tournament_changed(tournament)
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
            arena_begin(tournament, entries)
        tournament_advance(tournament)
        tournament_changed(tournament)
    return tournament


def tournament_pause(*, tournament_id: int, user: User) -> None:
    """Pause: games being played finish and count, but no new game is dealt until resumed."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
        if tournament.status != Tournament.Status.RUNNING:
            raise TournamentError(_("Only a running tournament can be paused."))
        tournament.status = Tournament.Status.PAUSED
        tournament_changed(tournament)


def tournament_resume(*, tournament_id: int, user: User) -> None:
    """Resume a paused tournament: deal every game that waited, then pair what is ready."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
        if tournament.status != Tournament.Status.PAUSED:
            raise TournamentError(_("The tournament is not paused."))
        tournament.status = Tournament.Status.RUNNING
        for pairing in tournament.pairings.filter(status=Pairing.Status.PLAYING):
            pairing_continue(tournament, pairing)
        tournament_advance(tournament)
        tournament_changed(tournament)


def tournament_cancel(*, tournament_id: int, user: User) -> None:
    """Cancel before or during play; games being played finish but no longer count."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("This tournament is already over."))
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = timezone.now()
        tournament_changed(tournament)


def tournament_finish(*, tournament_id: int, user: User) -> None:
    """End a running or paused tournament now, with the standings as they are (an elimination
    bracket gets its champion only if it was decided). An arena's time runs out now instead:
    nobody is paired again, and the games in play finish and count."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
        if not tournament.is_live:
            raise TournamentError(_("Only a running or paused tournament can be finished."))
        if tournament.is_arena:
            now = timezone.now()
            if tournament.ends_at is None or tournament.ends_at > now:
                tournament.ends_at = now
            arena_advance(tournament)
        else:
            tournament_end(tournament)
        tournament_changed(tournament)


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
        tournament = tournament_lock(tournament_id, user)
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
        pairing_decide(pairing, players, score, forfeit=pairing.forfeit)
        correction = ResultCorrection.objects.create(
            pairing=pairing, by=user, before=before, after=_result_of(pairing), reason=reason
        )
        if tournament.status == Tournament.Status.RUNNING:
            tournament_advance(tournament)
        tournament_changed(tournament)
    return correction


def _result_of(pairing: Pairing) -> dict[str, Any]:
    """A pairing's result as the corrections log keeps it."""
    return {
        "status": pairing.status,
        "score": pairing.score,
        "winner": pairing.winner_id,
        "forfeit": pairing.forfeit,
        "games": list(pairing.games),
    }


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
