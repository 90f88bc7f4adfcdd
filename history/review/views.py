"""The review panel of a finished match's page: ask for a review, and its progress (polled by
htmx while one is under way). Thin: parse, call one service or selector, render."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from durak_site.http import HtmxHttpRequest
from games.models import Match
from games.results import FOOL, seat_outcome
from history.selectors import match_for_record
from play.access import may_watch

from .models import Review
from .presenters import rating_edges, review_panels
from .selectors import match_reviews
from .services import ReviewRefused, may_request, review_request


def finished_match_or_404(request: HttpRequest, match_id: int) -> Match:
    """The finished match ``match_id`` if this viewer may watch it, else a 404 (the match page,
    its export and its reviews share it)."""
    try:
        match = match_for_record(match_id=match_id)
    except Match.DoesNotExist:
        raise Http404 from None
    if not may_watch(match, match.players.all(), request.user):
        raise Http404
    return match


def panel_context(request: HtmxHttpRequest, match: Match, last_step: int, error: str = "") -> dict[str, Any]:
    """The panel's context (also used by the match page itself)."""
    reviews = match_reviews(match=match)
    reviewed = {r.seat for r in reviews}
    players = list(match.players.all())
    names = {p.seat: str(p.user.public_name) for p in players}
    teams = bool(match.rules.get("teams"))
    losers = frozenset(
        p.seat for p in players if match.result and seat_outcome(match.result, p.seat, teams=teams) == FOOL
    )
    return {
        "match": match,
        "panels": review_panels(reviews, names, last_step, losers, rating_edges(match.rules, players)),
        "askable": [
            {"seat": p.seat, "name": names[p.seat], "own": p.user_id == request.user.pk}
            for p in players
            if p.seat not in reviewed and may_request(match, p.seat, request.user)
        ],
        "retryable": [
            r.seat
            for r in reviews
            if r.status == Review.Status.FAILED and may_request(match, r.seat, request.user)
        ],
        "pending": any(r.status == Review.Status.PENDING for r in reviews),
        "review_error": error,
    }


def _panel(request: HtmxHttpRequest, match: Match, error: str = "") -> HttpResponse:
    context = panel_context(request, match, match.moves.count(), error)
    return render(request, "history/_reviews.html", context)


@require_POST
def review_ask(request: HtmxHttpRequest, match_id: int, seat: int) -> HttpResponse:
    """Ask for the review of ``seat`` (the stored one comes back when there is one)."""
    match = finished_match_or_404(request, match_id)
    error = ""
    try:
        review_request(match_id=match.pk, seat=seat, user=request.user)
    except ReviewRefused as refused:
        error = refused.message
    if request.htmx:
        return _panel(request, match, error)
    if error:
        messages.error(request, error)
    return redirect(reverse("match_record", args=[match.pk]) + "#reviews")


@require_GET
def review_panel(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The panel alone, polled while a review is under way; when the last one finishes, the page
    reloads (``HX-Refresh``) so the replay and its log carry the labels."""
    match = finished_match_or_404(request, match_id)
    response = _panel(request, match)
    if (
        request.GET.get("was") == "pending"
        and not Review.objects.filter(match=match, status=Review.Status.PENDING).exists()
    ):
        response["HX-Refresh"] = "true"
    return response
