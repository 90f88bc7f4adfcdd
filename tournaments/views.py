"""Pages of tournaments: the list, creating and editing one, its page, and the POST actions of
players and organisers.

Thin on purpose: parse the request, call one service or selector, render. A draft is a 404 to
anyone but its organiser and those who may run any tournament (``selectors.may_run``: the
permission, not being staff); an organiser's action asked by anyone else is a 403; a refused
request (``TournamentError``) becomes a message, never a 500.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.models import User
from play.services import GameError
from tournaments import selectors, services
from tournaments.forms import BotsForm, CorrectionForm, TournamentForm
from tournaments.models import Tournament
from tournaments.presenters import present_banner, present_tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished tournaments, and the visitor's tables being played."""
    context = {
        **selectors.tournament_lists(request.user),
        "my_tables": selectors.next_tables(user=request.user),
    }
    return render(request, "tournaments/list.html", context)


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    """Set a tournament up; it starts as a draft only its organiser sees."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(organiser=_user(request), settings=form.settings())
        except services.TournamentError as error:
            form.add_error(None, error.message)
        else:
            return redirect("tournaments:detail", tournament.pk)
    return render(request, "tournaments/form.html", {"form": form, "tournament": None})


@login_required
def tournament_edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Change the settings before the start (organiser and staff)."""
    tournament = _runnable(request, tournament_id)
    form = TournamentForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(
                tournament_id=tournament.pk, user=_user(request), settings=form.settings()
            )
        except services.TournamentError as error:
            form.add_error(None, error.message)
        else:
            return redirect("tournaments:detail", tournament.pk)
    return render(request, "tournaments/form.html", {"form": form, "tournament": tournament})


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament page; its live part is refreshed over ``/ws/tournament/<id>/``."""
    return render(request, "tournaments/detail.html", _page_context(request, tournament_id))


def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The live part alone (fetched by the page when its socket says the tournament changed)."""
    return render(request, "tournaments/detail.html#live", _page_context(request, tournament_id))


# --- players ------------------------------------------------------------------------------------


@login_required
@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _player_action(request, tournament_id, services.entry_register)


@login_required
@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _player_action(request, tournament_id, services.entry_withdraw)


@login_required
@require_POST
def check_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _player_action(request, tournament_id, services.entry_check_in)


@login_required
@require_POST
def arena_pause(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _player_action(request, tournament_id, services.arena_pause)


@login_required
@require_POST
def arena_resume(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _player_action(request, tournament_id, services.arena_resume)


@login_required
@require_POST
def arena_berserk(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Go berserk in the viewer's arena game; back to the page it was asked from (the game's)."""
    tournament = _visible(request, tournament_id)
    _call(request, services.arena_berserk, tournament_id=tournament.pk, user=_user(request))
    back = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    if safe:
        return redirect(back)
    return redirect("tournaments:detail", tournament.pk)


def tournament_banner(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The banner above a tournament game's table (``?match=<id>``), fetched again by that
    page when its tournament socket says the tournament changed."""
    match = request.GET.get("match", "")
    banner = present_banner(int(match), request.user) if match.isascii() and match.isdigit() else None
    if banner is None or banner.tournament.pk != tournament_id:
        raise Http404
    return render(request, "tournaments/_banner_body.html", {"banner": banner})


# --- organisers ---------------------------------------------------------------------------------

#: The organiser's buttons that need nothing but the tournament: url segment -> service.
ORGANISER_ACTIONS: dict[str, Callable[..., Any]] = {
    "open": services.registration_open,
    "close": services.registration_close,
    "start": services.tournament_start,
    "pause": services.tournament_pause,
    "resume": services.tournament_resume,
    "cancel": services.tournament_cancel,
    "finish": services.tournament_finish,
}


@login_required
@require_POST
def organiser_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """One of :data:`ORGANISER_ACTIONS` (those who may run the tournament only)."""
    service = ORGANISER_ACTIONS.get(action)
    if service is None:
        raise Http404
    tournament = _runnable(request, tournament_id)
    _call(request, service, tournament_id=tournament.pk, user=_user(request))
    return redirect("tournaments:detail", tournament.pk)


@login_required
@require_POST
def bots_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _runnable(request, tournament_id)
    form = BotsForm(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
    else:
        _call(
            request,
            services.bots_add,
            tournament_id=tournament.pk,
            user=_user(request),
            level=form.cleaned_data["level"],
            count=form.cleaned_data["count"],
        )
    return redirect("tournaments:detail", tournament.pk)


@login_required
@require_POST
def player_remove(request: HttpRequest, tournament_id: int, player_id: int) -> HttpResponse:
    tournament = _runnable(request, tournament_id)
    _call(
        request, services.player_remove, tournament_id=tournament.pk, user=_user(request), player_id=player_id
    )
    return redirect("tournaments:detail", tournament.pk)


@login_required
@require_POST
def result_correct(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    tournament = _runnable(request, tournament_id)
    if not tournament.pairings.filter(pk=pairing_id).exists():
        raise Http404
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
    else:
        _call(
            request,
            services.result_correct,
            pairing_id=pairing_id,
            user=_user(request),
            score=form.cleaned_data["score"],
            reason=form.cleaned_data["reason"],
        )
    return redirect("tournaments:detail", tournament.pk)


# --- helpers ------------------------------------------------------------------------------------


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _visible(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, or 404 when there is none or it is someone else's draft."""
    try:
        tournament = selectors.tournament_get(tournament_id=tournament_id)
    except Tournament.DoesNotExist:
        raise Http404 from None
    if not selectors.may_see(tournament, request.user):
        raise Http404
    return tournament


def _page_context(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """The page's context for this viewer: the full page and its live part render the same."""
    context = present_tournament(_visible(request, tournament_id), request.user)
    context.update(bots_form=BotsForm(), correction_form=CorrectionForm())
    return context


def _runnable(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament if the visitor may run it: 404 if they cannot see it, else 403."""
    tournament = _visible(request, tournament_id)
    if not selectors.may_run(tournament, request.user):
        raise PermissionDenied
    return tournament


def _call(request: HttpRequest, service: Callable[..., Any], **kwargs: Any) -> bool:
    """Call ``service``; a refusal becomes an error message. Returns whether it succeeded."""
    try:
        service(**kwargs)
    except services.NotAllowed:
        raise PermissionDenied from None
    except (services.TournamentError, GameError) as error:
        messages.error(request, error.message)
        return False
    return True


def _player_action(request: HttpRequest, tournament_id: int, service: Callable[..., Any]) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    _call(request, service, tournament_id=tournament.pk, user=_user(request))
    return redirect("tournaments:detail", tournament.pk)


def _first_error(form: Any) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return ""
