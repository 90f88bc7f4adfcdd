"""The puzzle pages: the next puzzle near one's rating, a puzzle at the learner's step, a move.

The learner's place in the line lives in the session (not in the form), so a rated attempt cannot
skip a step. A move is counted against the client's and the account's limits before anything is
read; an illegal one is answered with the engine's own sentence and costs nothing; a legal move
off the line fails the puzzle (the first attempt of an account is rated either way). With htmx
the board's fragment is swapped in place; without script the same form posts and the page comes
back whole.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from durak_site.http import HtmxHttpRequest
from games.engine import Action, IllegalAction, NotationError
from games.words import illegal_message
from puzzles import selectors
from puzzles.board import Feedback, board_at, step_state
from puzzles.limits import move_allowed
from puzzles.models import Puzzle
from puzzles.services import attempt_rate

SESSION_KEY = "puzzle_progress"


def next_puzzle(request: HttpRequest) -> HttpResponse:
    """The puzzle nearest the player's rating not yet tried (``/puzzles/``)."""
    found = selectors.next_for(request.user)
    if found is None:
        return render(request, "puzzles/none.html")
    return redirect("puzzles:detail", puzzle_id=found.pk)


def _puzzle(puzzle_id: int) -> Puzzle:
    found = selectors.puzzle(puzzle_id)
    if found is None:
        raise Http404(_("There is no such puzzle."))
    return found


def _progress(request: HttpRequest, puzzle: Puzzle) -> int:
    stored = request.session.get(SESSION_KEY) or {}
    return int(stored.get("step", 0)) if stored.get("id") == puzzle.pk else 0


def detail(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    """A puzzle at the learner's step; a fresh visit starts it again."""
    found = _puzzle(puzzle_id)
    request.session[SESSION_KEY] = {"id": found.pk, "step": 0}
    return _render(request, found, 0, Feedback())


@require_POST
def move(request: HtmxHttpRequest, puzzle_id: int) -> HttpResponse:
    """Judge one move of the learner at their step."""
    if not move_allowed(request):
        return HttpResponse(_("You are moving too fast. Wait a minute, then try again."), status=429)
    found = _puzzle(puzzle_id)
    step = _progress(request, found)
    if step >= len(found.steps):
        return _render(request, found, step, Feedback(done=True, solved=True))
    text = (request.POST.get("move") or "").strip()[:200]
    try:
        action = Action.parse(text)
        step_state(found, step).apply(found.seat, action)
    except NotationError:
        return _render(
            request,
            found,
            step,
            Feedback(message=_("That is not a move. Choose one of the moves below.")),
            400,
        )
    except IllegalAction as error:
        return _render(request, found, step, Feedback(message=illegal_message(error)), 400)
    if str(action) not in found.steps[step]["accept"]:
        attempt = (
            attempt_rate(request.user, found.pk, solved=False) if request.user.is_authenticated else None
        )
        request.session[SESSION_KEY] = {"id": found.pk, "step": len(found.steps)}
        return _render(
            request, found, step, Feedback(done=True, solved=False, wrong=str(action), attempt=attempt)
        )
    step += 1
    request.session[SESSION_KEY] = {"id": found.pk, "step": step}
    if step < len(found.steps):
        return _render(request, found, step, Feedback(right=True))
    attempt = attempt_rate(request.user, found.pk, solved=True) if request.user.is_authenticated else None
    return _render(request, found, step, Feedback(done=True, solved=True, attempt=attempt))


def _render(
    request: HttpRequest, found: Puzzle, step: int, feedback: Feedback, status: int = 200
) -> HttpResponse:
    context = {
        "puzzle": found,
        "board": board_at(found, step),
        "feedback": feedback,
        "rating": selectors.rating_of(request.user),
        "already": selectors.attempted(request.user, found.pk) if feedback.attempt is None else None,
    }
    htmx = getattr(request, "htmx", False)
    template = "puzzles/_board.html" if htmx else "puzzles/detail.html"
    return render(request, template, context, status=200 if htmx and status == 400 else status)
