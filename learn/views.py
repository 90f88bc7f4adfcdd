"""The lessons' pages: the list, a lesson at one of its steps, and the answer to a step.

An answer is posted by the board's form; with htmx the step's fragment is swapped in place, and
without script the same form posts and the whole lesson page comes back, at the same step. The
answer is counted against the client's and the account's limits before anything is read.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from durak_site.http import HtmxHttpRequest
from games.engine import GameState
from learn.board import board
from learn.checking import Verdict, judge, step_state
from learn.forms import AnswerForm
from learn.lessons import BY_SLUG, LESSONS, Lesson
from learn.limits import answer_allowed
from learn.selectors import Progress, progress_of, summary
from learn.services import step_answered


def index(request: HttpRequest) -> HttpResponse:
    """Every lesson with the learner's progress in it."""
    progress = progress_of(request.user, request.session)
    rows = [(lesson, progress.get(lesson.slug, Progress())) for lesson in LESSONS]
    return render(request, "learn/index.html", {"rows": rows, "summary": summary(progress)})


def _lesson(slug: str) -> Lesson:
    lesson = BY_SLUG.get(slug)
    if lesson is None:
        raise Http404(_("There is no such lesson."))
    return lesson


def _number(lesson: Lesson, raw: str | None, progress: Progress) -> int:
    """The step asked for (1-based), else the first one not yet answered; out of range or not a
    number: the nearest step."""
    if raw is None or not raw.strip().isdigit():
        return 1 if progress.done else min(progress.reached + 1, len(lesson.steps))
    return max(1, min(int(raw), len(lesson.steps)))


def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    """A lesson at one step (``?step=N``, by default the first not yet answered)."""
    current = _lesson(slug)
    progress = progress_of(request.user, request.session).get(slug, Progress())
    number = _number(current, request.GET.get("step"), progress)
    context = _step_context(current, number, state=step_state(current.steps[number - 1]))
    return render(request, "learn/lesson.html", {**context, "progress": progress})


@require_POST
def answer(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """Judge a move for step ``number``: the engine's refusal and the hint, the hint alone for a
    legal move the step does not ask for, or the position after the right move and what it showed."""
    if not answer_allowed(request):
        message = _("You are answering too fast. Wait a minute, then try again.")
        return _respond(request, slug, number, message=message, status=429)
    current = _lesson(slug)
    if not 1 <= number <= len(current.steps):
        raise Http404(_("There is no such step."))
    form = AnswerForm(request.POST)
    if not form.is_valid():
        message = " ".join(str(error) for errors in form.errors.values() for error in errors)
        return _respond(request, slug, number, message=message, status=400)
    verdict = judge(current.steps[number - 1], form.action())
    if verdict.correct:
        step_answered(request.user, request.session, current, number)
    return _respond(request, slug, number, verdict=verdict)


def _respond(
    request: HtmxHttpRequest,
    slug: str,
    number: int,
    *,
    verdict: Verdict | None = None,
    message: str = "",
    status: int = 200,
) -> HttpResponse:
    """The step again with the verdict or the message: its fragment for htmx (status 200, which
    htmx swaps), the whole lesson page without script (with the status the request earned)."""
    current = _lesson(slug)
    number = max(1, min(number, len(current.steps)))
    step = current.steps[number - 1]
    state = verdict.after if verdict is not None and verdict.correct and verdict.after else step_state(step)
    context = _step_context(current, number, state=state, verdict=verdict, message=message)
    if request.htmx:
        return render(request, "learn/_step.html", context)
    progress = progress_of(request.user, request.session).get(slug, Progress())
    return render(request, "learn/lesson.html", {**context, "progress": progress}, status=status)


def _step_context(
    current: Lesson, number: int, *, state: GameState, verdict: Verdict | None = None, message: str = ""
) -> dict[str, object]:
    step = current.steps[number - 1]
    return {
        "lesson": current,
        "step": step,
        "number": number,
        "count": len(current.steps),
        "board": board(state, step.seat),
        "verdict": verdict,
        "message": message,
        "last": number == len(current.steps),
        "next_lesson": _next_lesson(current),
    }


def _next_lesson(current: Lesson) -> Lesson | None:
    index = LESSONS.index(current)
    return LESSONS[index + 1] if index + 1 < len(LESSONS) else None
