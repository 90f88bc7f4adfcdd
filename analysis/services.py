"""Writes of the analysis board: asking for an evaluation, and one step of its work.

Asking (:func:`evaluation_request`) is cheap and refuses before any search: a signed-in user
only (the limits count accounts), one evaluation pending at a time, ``ANALYSIS_EVALUATION_RATE``
per window; the position is read by the engine, so nothing impossible is ever queued. One whose
chain of steps was lost is marked failed when read (:func:`evaluations_lost`). A step
(:func:`evaluation_step`, the task ``analysis.evaluation_step`` on the ``reviews`` queue, which
never stands in front of a bot turn or a deadline) judges one move and sends the next, so the
page shows progress and a worker shared with live play (the embedded one) is held for one
move's search at a time.

Each move gets a search of its own with that move alone at the root (:class:`Search` as the
review runs it), seeded by the evaluation and the move, so a step run twice stores the same
chance. With ``open`` the search is given the state itself (:class:`OpenInformation`): every
card of the position, which is the user's own text. Without it the search sees the seat's view
only and samples the hidden cards, as the review does. Nothing here ever reads a match: a
position from a match comes only from a finished match's replay, which shows every card anyway.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from durak_site.errors import Refused
from durak_site.tasks import enqueue_on_commit
from games.bots.ismcts import Search
from games.engine import Action, GameState, InfoState, deck_cards

from .board import BoardRefused, read_board
from .models import Evaluation

logger = logging.getLogger(__name__)

#: The task's registered name (``analysis.tasks``), sent by name so this module need not import it.
EVALUATION_STEP_TASK = "analysis.evaluation_step"
#: The most moves one evaluation judges (a seat rarely has more than a dozen).
MAX_MOVES = 40
#: A pending evaluation no step has touched for this long has lost its chain of steps (a worker
#: died mid-step, or the broker was emptied): it is marked failed when next read. Each step judges
#: one move in seconds and touches the row; the limit leaves room for a queue held up by reviews.
LOST_AFTER = timedelta(minutes=5)


class EvaluationRefused(Refused):
    default_message = _("This evaluation is not possible.")


class OpenInformation(InfoState):
    """Every card known: each sample is the position itself, so the search judges the moves
    as if all hands were face up."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat

    def sample(self, rng: random.Random) -> GameState:
        s = self.state.clone()
        s.seed = f"det{rng.getrandbits(32)}"
        return s


class SeatInformation(InfoState):
    """One seat's information in a position that may leave cards out of play (one set up by
    hand, without the rest of the deck): which cards are out is a fact of the set-up, known to
    every seat, so the search deals only the cards that are in play, and where each hidden one
    lies is sampled as the review does. In a position from a real game no card is out of play
    and this is the seat's plain information set."""

    def __init__(self, state: GameState, seat: int) -> None:
        placed = 0
        for mask in state.places_of_cards().values():
            placed |= mask
        deck = 0
        for card in deck_cards(state.rules.deck, state.rules.jokers):
            deck |= 1 << card
        absent = deck & ~placed
        shown = state.clone()
        shown.discard |= absent
        super().__init__(shown.view(seat), state.rules, [])
        self.rest = [c for c in self.rest if not absent >> c & 1]
        self.known_discard |= absent
        self.unknown_discard -= absent.bit_count()


def evaluation_request(*, user: User, position: str, seat: int, open_cards: bool) -> Evaluation:
    """A new evaluation of ``seat``'s legal moves in ``position`` (the line already folded in).

    Raises ``EvaluationRefused`` (nothing changed) for a position the engine refuses, a seat
    with no move, one pending evaluation already, or a user over the rate limit."""
    try:
        state = read_board(position, []).state
    except BoardRefused as refused:
        raise EvaluationRefused(refused.message) from None
    if seat not in state.actors():
        raise EvaluationRefused(_("Seat %(seat)s has no move here.") % {"seat": seat})
    moves = state.legal_actions(seat)
    if len(moves) > MAX_MOVES:
        raise EvaluationRefused(_("This seat has too many moves to judge."))
    evaluations_lost(user=user)
    if Evaluation.objects.filter(user=user, status=Evaluation.Status.PENDING).exists():
        raise EvaluationRefused(_("Your last evaluation is still running: wait for it first."))
    limit, window = settings.ANALYSIS_EVALUATION_RATE
    since = timezone.now() - timedelta(seconds=window)
    if Evaluation.objects.filter(user=user, created__gte=since).count() >= limit:
        raise EvaluationRefused(_("You have asked for many evaluations lately: try again in a while."))
    with transaction.atomic():
        evaluation = Evaluation.objects.create(
            user=user, position=state.position(), seat=seat, open=open_cards, total=len(moves)
        )
        enqueue_on_commit(EVALUATION_STEP_TASK, evaluation.pk)
    return evaluation


def evaluations_lost(*, user: User, evaluation_id: int | None = None) -> int:
    """Mark failed the user's pending evaluations (or the one ``evaluation_id``) untouched for
    ``LOST_AFTER``; how many.

    Why: an evaluation's chain of steps lives only in the broker, so a lost step left it pending
    for ever, its page polling and every new request refused as "still running". It is checked
    where it matters, when the evaluation is read (the page's poll) and when its owner asks for
    another, so it needs no periodic task. Failed rather than resumed: its owner sees it stop and
    may ask again at once (a new evaluation, with searches seeded afresh). Harmless twice and
    beside a step that was only late: only a row still pending and stale changes, and a late step
    stores nothing into a failed one (:func:`evaluation_step`)."""
    stale = Evaluation.objects.filter(
        user=user, status=Evaluation.Status.PENDING, updated__lt=timezone.now() - LOST_AFTER
    )
    if evaluation_id is not None:
        stale = stale.filter(pk=evaluation_id)
    return stale.update(status=Evaluation.Status.FAILED, updated=timezone.now())


def judge(
    state: GameState, seat: int, action: Action, *, open_cards: bool, seed: str, iterations: int
) -> dict[str, Any]:
    """One move's chance of not being the fool for ``seat`` and the playouts behind it."""
    info = OpenInformation(state, seat) if open_cards else SeatInformation(state, seat)
    move = action.to_fast()
    search = Search(info, [move], random.Random(seed))
    while search.iterations < iterations:
        search.iterate()
    node = search.root.children.get(move)
    visits = node.visits if node is not None else 0
    p = node.total / visits if node is not None and visits else 0.5
    return {"move": str(action), "p": round(p, 4), "samples": visits}


def evaluation_step(*, evaluation_id: int) -> bool:
    """Judge the evaluation's next move and send the next step; True when one was stored."""
    evaluation = Evaluation.objects.filter(pk=evaluation_id, status=Evaluation.Status.PENDING).first()
    if evaluation is None:
        return False
    state = GameState.from_position(evaluation.position)
    moves = state.legal_actions(evaluation.seat)
    index = len(evaluation.judgements)
    if index < len(moves):
        try:
            judgement = judge(
                state,
                evaluation.seat,
                moves[index],
                open_cards=evaluation.open,
                seed=f"analysis:{evaluation.pk}:{index}",
                iterations=settings.HISTORY_REVIEW_ITERATIONS,
            )
        except Exception:
            logger.exception("evaluation %s failed at move %s", evaluation.pk, index)
            Evaluation.objects.filter(pk=evaluation.pk).update(status=Evaluation.Status.FAILED)
            return False
    with transaction.atomic():
        locked = Evaluation.objects.select_for_update().get(pk=evaluation.pk)
        if locked.status != Evaluation.Status.PENDING or len(locked.judgements) != index:
            return False  # a duplicate step: the first one stored this move
        if index < len(moves):
            locked.judgements = [*locked.judgements, judgement]
        locked.done = len(locked.judgements)
        if locked.done >= len(moves):
            locked.status = Evaluation.Status.DONE
        else:
            enqueue_on_commit(EVALUATION_STEP_TASK, locked.pk)
        locked.save(update_fields=["judgements", "done", "status", "updated"])
    return index < len(moves)
