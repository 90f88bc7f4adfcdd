"""Pages of the analysis board: the board (a position and a line), the editor, and an
evaluation asked for and polled. Every request is counted (``limits``) before it reads anything;
bad input is said on the page, never a 500."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games.engine import card_str, deck_cards

from .board import BoardRefused, read_board
from .forms import EditorForm
from .limits import board_allowed
from .selectors import evaluation_of, finished_step_position
from .services import EvaluationRefused, evaluation_request, evaluations_lost

#: The editor's card chips: the 52-card deck and the jokers.
CARDS = [card_str(c) for c in deck_cards(52, 2)]


def _too_many(request: HttpRequest) -> HttpResponse:
    return render(
        request, "analysis/refused.html", {"message": _("Too many requests: wait a minute.")}, status=429
    )


def _board_context(request: HttpRequest, start: str, line: list[str]) -> dict[str, Any]:
    context: dict[str, Any] = {"start": start, "editor": EditorForm(), "cards": CARDS}
    if not start and not line:
        return context
    try:
        board = read_board(start, line)
    except BoardRefused as refused:
        context["error"] = refused.message
        return context
    context["board"] = board
    context["full_view"] = board.state.full_view()
    return context


@require_GET
def board(request: HttpRequest) -> HttpResponse:
    """The board: ``?position=`` with ``m=seat:move`` played on, or ``?match=&step=`` for a
    finished match's step (nothing for a match in play), or the empty board with the editor."""
    if not board_allowed(request):
        return _too_many(request)
    start = request.GET.get("position", "")
    if "match" in request.GET:
        try:
            match_id, step = int(request.GET["match"]), int(request.GET.get("step", 0))
        except ValueError:
            raise Http404 from None
        found = finished_step_position(match_id=match_id, step=step, user=request.user)
        if found is None:
            context = _board_context(request, "", [])
            context["error"] = _("Only a finished game you may watch can be analysed.")
            return render(request, "analysis/board.html", context, status=404)
        start = found
    return render(request, "analysis/board.html", _board_context(request, start, request.GET.getlist("m")))


@require_POST
def editor(request: HttpRequest) -> HttpResponse:
    """The editor's fields turned into a position and opened on the board, or its refusal."""
    if not board_allowed(request):
        return _too_many(request)
    form = EditorForm(request.POST)
    if form.is_valid():
        return redirect(reverse("analysis:board") + "?" + urlencode({"position": form.position}))
    context = _board_context(request, "", [])
    context["editor"] = form
    return render(request, "analysis/board.html", context, status=400)


@login_required
@require_POST
def evaluate(request: HttpRequest) -> HttpResponse:
    """Ask for an evaluation of one seat's moves in the posted position; the progress fragment."""
    if not board_allowed(request):
        return _too_many(request)
    assert isinstance(request.user, User)
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        seat = -1
    try:
        evaluation = evaluation_request(
            user=request.user,
            position=request.POST.get("position", "")[:4000],
            seat=seat,
            open_cards=request.POST.get("open") == "1",
        )
    except EvaluationRefused as refused:
        return _evaluation_page(request, {"error": refused.message}, status=400)
    return _evaluation_page(request, {"evaluation": evaluation})


def _evaluation_page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """The fragment for htmx; without script, the whole board with the fragment in place."""
    if request.headers.get("HX-Request"):
        return render(request, "analysis/_evaluation.html", context, status=status)
    page = _board_context(request, request.POST.get("position", "")[:4000], [])
    return render(request, "analysis/board.html", {**page, **context}, status=status)


@login_required
@require_GET
def evaluation(request: HttpRequest, evaluation_id: int) -> HttpResponse:
    """The evaluation's progress and, once done, its moves best first (polled by htmx); one whose
    steps were lost is failed first, so the page stops polling and says so."""
    if not board_allowed(request):
        return _too_many(request)
    assert isinstance(request.user, User)
    evaluations_lost(user=request.user, evaluation_id=evaluation_id)
    found = evaluation_of(evaluation_id=evaluation_id, user=request.user)
    if found is None:
        raise Http404
    judgements = sorted(found.judgements, key=lambda r: -r["p"])
    return render(request, "analysis/_evaluation.html", {"evaluation": found, "judgements": judgements})
