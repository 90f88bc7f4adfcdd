"""Writes of game reviews: asking for one, and one step of its work.

Asking (:func:`review_request`) is cheap: it checks who asks, returns the stored review when
there is one (one per match and seat, so asking again costs nothing), counts the user's new
reviews against the rate limit, stores the review with its number of decisions and sends the
first step after the commit. A step (:func:`review_step`, the task ``history.review_step``)
assesses the next decision not yet stored, stores it and sends the next step: one decision per
run, so a worker shared with live play (the embedded one) is never held longer than one
decision's search, and in production the ``reviews`` queue has a worker of its own.

A step is harmless twice: the search is seeded by the match, seat and move, so a duplicate
computes the same decision, and the row's unique ``(review, seq)`` keeps the first one.

A step whose search raises (a bug in the bot or the engine) marks the review failed instead of
leaving it pending for ever: the page stops waiting and says so, and asking again after a while
(``STALLED``) tries again, so a fix that has been deployed meanwhile is picked up. The search is
seeded, so trying again at once would only fail again. A pending review whose chain was lost is
resumed by beat's sweep (:func:`reviews_resume`).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from durak_site.errors import Refused
from durak_site.tasks import enqueue_on_commit
from games.bots.assess import assess_record_step, record_decisions
from games.engine import GameRecord, Rules
from games.models import Match, Move
from play.access import may_watch
from play.selectors import match_moves

from .models import Review, ReviewDecision

logger = logging.getLogger(__name__)

#: The task's registered name (``history.tasks``), sent by name so this module need not import it.
REVIEW_STEP_TASK = "history.review_step"
#: A pending review untouched this long has lost its chain of steps, and a failed one this long
#: may be tried again: asking again restarts either.
STALLED = timedelta(minutes=2)


class ReviewRefused(Refused):
    default_message = _("This review is not possible.")


def reviewed_moves(match: Match, seat: int) -> tuple[GameRecord, list[Move], list[int]]:
    """The match's record, its move log and the indices of ``seat``'s reviewed decisions: the
    seat's own choices (a timeout's or an autopilot's moves are not the player's)."""
    moves = list(match_moves(match_id=match.pk))
    record = GameRecord(
        Rules.from_dict(match.rules), match.seed, match.dealer, [(m.seat, m.action) for m in moves]
    )
    mine = [i for i in record_decisions(record, seat) if moves[i].by != Move.By.AUTOPILOT]
    return record, moves, mine


def may_request(match: Match, seat: int, user: User | AnonymousUser) -> bool:
    """A player may ask for the review of their own seat; anyone signed in, of any seat of a
    match at a table open to watch (a public one, or a tournament's)."""
    if not user.is_authenticated:
        return False
    players = list(match.players.all())
    if not may_watch(match, players, user):
        return False
    own = any(p.user_id == user.pk and p.seat == seat for p in players)
    return own or match.table.open_to_watch


def review_request(*, match_id: int, seat: int, user: User | AnonymousUser) -> Review:
    """The review of ``seat`` in the finished match: the stored one, or a new one being made.

    Raises ``ReviewRefused`` (nothing changed) for a match that is not finished or not there, a
    seat not in it, a user who may not ask, or a user over the rate limit."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).select_related("table").first()
    if match is None:
        raise ReviewRefused(_("Only a finished game can be reviewed."))
    if not any(p.seat == seat for p in match.players.all()):
        raise ReviewRefused(_("There is no such seat in this game."))
    if not may_request(match, seat, user):
        raise ReviewRefused(
            _("You may ask for a review of your own play, or of any player once the game is public.")
        )
    assert isinstance(user, User)
    existing = Review.objects.filter(match=match, seat=seat).first()
    if existing is not None:
        if existing.status != Review.Status.DONE and existing.updated < timezone.now() - STALLED:
            # A pending chain was lost (a worker died), or a failed one may work now.
            _restart(existing.pk, existing.status)
            existing.refresh_from_db()
        return existing
    limit, window = settings.HISTORY_REVIEW_RATE
    recent = Review.objects.filter(requested_by=user, created__gte=timezone.now() - timedelta(seconds=window))
    if recent.count() >= limit:
        raise ReviewRefused(_("You have asked for many reviews lately: try again in a while."))
    _record, _moves, decisions = reviewed_moves(match, seat)
    with transaction.atomic():
        review, created = Review.objects.get_or_create(
            match=match, seat=seat, defaults={"requested_by": user, "total": len(decisions)}
        )
        if created:
            if decisions:
                enqueue_on_commit(REVIEW_STEP_TASK, review.pk)
            else:
                review.status = Review.Status.DONE
                review.finished_at = timezone.now()
                review.save(update_fields=["status", "finished_at"])
    return review


def _restart(review_id: int, status: str) -> bool:
    """Mark the review pending and touched now, and send its next step after the commit; False
    when someone else restarted it first (its status or ``updated`` moved meanwhile)."""
    with transaction.atomic():
        restarted = bool(
            Review.objects.filter(pk=review_id, status=status, updated__lt=timezone.now() - STALLED).update(
                status=Review.Status.PENDING, updated=timezone.now()
            )
        )
        if restarted:
            enqueue_on_commit(REVIEW_STEP_TASK, review_id)
    return restarted


def reviews_resume() -> int:
    """Send the next step of every pending review untouched for ``STALLED``; returns how many.

    Why: a review's chain of steps lives only in the broker, so a worker that died mid-step (or
    a Redis restarted empty) left the review pending for ever unless someone asked again. Beat
    runs this every minute (``history.reviews_sweep``). Each step touches ``updated``, so a chain
    that is alive is never resumed; a resumed one whose old step was only late runs twice, which
    a step survives (see the module's docstring). Failed reviews are left alone: their search is
    seeded and would fail again; asking again after a while retries them."""
    stalled = Review.objects.filter(
        status=Review.Status.PENDING, updated__lt=timezone.now() - STALLED
    ).values_list("pk", flat=True)
    return sum(_restart(pk, Review.Status.PENDING) for pk in stalled)


def review_step(*, review_id: int) -> bool:
    """Assess the next decision of the review not yet stored; True when one was stored.

    The search runs outside any transaction; the row is written under the review's lock."""
    review = Review.objects.filter(pk=review_id).select_related("match").first()
    if review is None or review.status != Review.Status.PENDING:
        return False
    record, moves, decisions = reviewed_moves(review.match, review.seat)
    stored = set(review.decisions.values_list("seq", flat=True))
    todo = [i for i in decisions if moves[i].seq not in stored]
    stored_one = False
    if todo:
        index = todo[0]
        move = moves[index]
        seed = f"review:{review.match_id}:{review.seat}:{move.seq}"
        try:
            verdict = assess_record_step(record, index, seed, iterations=settings.HISTORY_REVIEW_ITERATIONS)
        except Exception:
            logger.exception("review %s failed at move %s", review.pk, move.seq)
            Review.objects.filter(pk=review.pk, status=Review.Status.PENDING).update(
                status=Review.Status.FAILED, updated=timezone.now()
            )
            return False
        with transaction.atomic():
            Review.objects.select_for_update().get(pk=review.pk)
            _, stored_one = ReviewDecision.objects.get_or_create(
                review=review,
                seq=move.seq,
                defaults={
                    "played": verdict.played,
                    "best": verdict.best,
                    "p_played": verdict.p_played,
                    "p_best": verdict.p_best,
                    "samples_played": verdict.samples_played,
                    "samples_best": verdict.samples_best,
                    "label": verdict.label,
                },
            )
    with transaction.atomic():
        locked = Review.objects.select_for_update().get(pk=review.pk)
        locked.done = locked.decisions.count()
        fields = ["done"]
        if locked.done >= len(decisions):
            locked.total = len(decisions)
            locked.status = Review.Status.DONE
            locked.finished_at = timezone.now()
            fields += ["total", "status", "finished_at"]
        elif stored_one:  # a duplicate that stored nothing leaves the chain to the first
            enqueue_on_commit(REVIEW_STEP_TASK, review.pk)
        locked.save(update_fields=[*fields, "updated"])
    return stored_one
