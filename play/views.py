"""Pages of live play: the lobby, creating a table, the table page, and the match page.

Thin on purpose: parse the request, call one service or selector, render. A refused request
(``GameError``) becomes a message for the user, never a 500. The match page and the POST fallback
of a move render only the viewer's context from ``play.presenters``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from durak_site.http import HtmxHttpRequest
from games.models import Table
from play import selectors, services
from play.access import may_see_table, may_watch
from play.forms import ActionForm, BotFillForm, BotGameForm, BotGamePost, TableCreateForm
from play.fragments import match_fragments, render_error
from play.loaded import LoadedMatch
from play.presenters import present_lobby, present_match, present_table


def lobby(request: HttpRequest) -> HttpResponse:
    """Open public tables (updated live over ``/ws/lobby/``) and the visitor's own tables."""
    context = {
        "tables": present_lobby(selectors.open_tables()),
        "my_tables": selectors.user_tables(user=request.user) if request.user.is_authenticated else [],
        "my_matches": selectors.user_active_matches(user=request.user)
        if request.user.is_authenticated
        else [],
        "bot_game_form": BotGameForm(),
    }
    return render(request, "games/lobby.html", context)


@login_required
@require_POST
def bot_game(request: HttpRequest) -> HttpResponse:
    """Play bots now: a casual table of the chosen variant and size, bots on every other seat,
    and straight to its match (``services.bot_game_start``; the table page while the deal waits
    for this browser's value); a refusal goes back with a message."""
    form = BotGamePost.with_defaults(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return redirect("games:lobby")
    try:
        table = services.bot_game_start(
            user=_user(request), rules=form.cleaned_data["rules"], level=form.cleaned_data["level"]
        )
    except services.GameError as error:
        messages.error(request, error.message)
        return redirect("games:lobby")
    return redirect(selectors.table_landing(table_id=table.pk))


@login_required
def table_create(request: HttpRequest) -> HttpResponse:
    """Create a table from the form; the creator sits at it."""
    form = TableCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.table_create(
                creator=_user(request),
                rules=form.rules,
                rated=form.cleaned_data["rated"],
                turn_seconds=form.cleaned_data["turn_seconds"],
                throw_in_seconds=form.cleaned_data["throw_in_seconds"],
                private=form.cleaned_data["private"],
                sit=not form.cleaned_data["watch"],
            )
        except services.GameError as error:
            form.add_error(None, error.message)
        else:
            return redirect("games:table", table.pk)
    return render(request, "games/table_create.html", {"form": form})


@never_cache
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table before and between matches: seats, invite link, bots; a running match's link.

    Never cached, nor kept in the browser's back-forward cache: Back from the match must load
    it afresh, so that its script sees the running match and goes on to the lobby."""
    table = _table_or_404(table_id)
    token = request.GET.get("invite", "")
    user = request.user
    if not may_see_table(table, user, token):
        raise Http404
    invite_url = request.build_absolute_uri(reverse("games:table_invite", args=[table.invite_token]))
    context = present_table(table, user, token=token, invite_url=invite_url)
    return render(request, "games/table.html", context)


def table_invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link: the private table's page, carrying its token."""
    try:
        table = selectors.table_by_invite(token=token)
    except Table.DoesNotExist:
        raise Http404 from None
    return redirect(f"{reverse('games:table', args=[table.pk])}?invite={token}")


@login_required
@require_POST
def seat_take(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """Take the lowest free seat (a private table needs the invite token in the form)."""
    position = request.POST.get("position")
    try:
        services.table_join(
            table_id=table_id,
            user=_user(request),
            position=int(position) if position and position.isascii() and position.isdigit() else None,
            invite_token=request.POST.get("invite") or None,
            **_seed_fields(request),
        )
    except services.GameError as error:
        messages.error(request, error.message)
    return _to_table(request, table_id)


@login_required
@require_POST
def seat_leave(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """Stand up from the table (only while no match is being played)."""
    try:
        services.seat_leave(table_id=table_id, user=_user(request))
    except services.GameError as error:
        messages.error(request, error.message)
        return _to_table(request, table_id)
    return _redirect(request, reverse("games:lobby"))


@login_required
@require_POST
def seats_fill(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """Fill every free seat with bots of the chosen level; the match then starts."""
    form = BotFillForm(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return _to_table(request, table_id)
    try:
        services.seats_fill_with_bots(
            table_id=table_id, user=_user(request), level=form.cleaned_data["level"]
        )
    except services.GameError as error:
        messages.error(request, error.message)
    return _to_table(request, table_id)


@login_required
@require_POST
def seed_contribute(request: HttpRequest, table_id: int) -> JsonResponse:
    """A seated player's random value for the table's next deal (posted by ``js/fair_seed.js``):
    ``{"ok": true}``; ``{"ok": false, "awaited": false, "error": …}`` with a 200 for a value no
    deal awaits (late, a second one, from a player who left), which the page did not get wrong and
    so is no failed request in its console; a 400 with the refusal in ``"error"`` for a malformed
    one."""
    try:
        services.seed_contribute(
            table_id=table_id,
            user=_user(request),
            value=request.POST.get("seed_value", ""),
            commitment=request.POST.get("seed_commitment", ""),
        )
    except services.ValueNotAwaited as late:
        return JsonResponse({"ok": False, "awaited": False, "error": str(late.message)})
    except services.GameError as error:
        return JsonResponse({"ok": False, "error": str(error.message)}, status=400)
    return JsonResponse({"ok": True})


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match page: every fragment rendered for this viewer; the socket keeps it current."""
    loaded = _match_or_404(match_id)
    if not may_watch(loaded.match, loaded.players, request.user):
        raise Http404
    context = {"m": present_match(loaded, request.user)}
    return render(request, "games/match.html", context)


@login_required
@require_POST
def match_action(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The POST fallback of a move, through the same service as the socket.

    An htmx request gets the viewer's fresh fragments (out-of-band) or the error; a plain form
    post is redirected back to the match page with a message."""
    form = ActionForm(request.POST)
    error: str | None = None
    applied: LoadedMatch | None = None
    if not form.is_valid():
        error = _first_error(form)
    else:
        try:
            applied = services.action_apply(
                match_id=match_id,
                user=_user(request),
                action_text=form.cleaned_data["action"],
                expected_version=form.cleaned_data["version"],
            )
        except services.GameError as refused:
            error = refused.message
    if request.htmx:
        loaded = applied if applied is not None else _match_or_404(match_id)
        html, _version, _seq = match_fragments(loaded, _user(request), error=error or "")
        return HttpResponse(html)
    if error:
        messages.error(request, error)
    return redirect("games:match", match_id)


@login_required
@require_POST
def match_resign(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Resign: a bot finishes the seat's game and the seat counts as the fool."""
    return _match_command(request, match_id, services.match_resign)


@login_required
@require_POST
def match_abort(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Abort before the first action."""
    return _match_command(request, match_id, services.match_abort)


@login_required
@require_POST
def match_again(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Agree to play again at the same table; the new match starts when every human agreed."""
    try:
        new_match = services.play_again(match_id=match_id, user=_user(request), **_seed_fields(request))
    except services.GameError as error:
        messages.error(request, error.message)
        new_match = None
    if new_match is not None:
        return _redirect(request, reverse("games:match", args=[new_match.pk]))
    return _redirect(request, reverse("games:match", args=[match_id]))


# --- helpers ---------------------------------------------------------------------------------


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required ran
    return user


class SeedFields(TypedDict):
    seed_value: str | None
    seed_commitment: str | None


def _seed_fields(request: HttpRequest) -> SeedFields:
    """The value and the commitment a page's script adds to a seat or "play again" form."""
    return {
        "seed_value": request.POST.get("seed_value") or None,
        "seed_commitment": request.POST.get("seed_commitment") or None,
    }


def _table_or_404(table_id: int) -> Table:
    try:
        return selectors.table_get(table_id=table_id)
    except Table.DoesNotExist:
        raise Http404 from None


def _match_or_404(match_id: int) -> LoadedMatch:
    loaded = selectors.match_load(match_id=match_id)
    if loaded is None:
        raise Http404
    return loaded


def _match_command(request: HtmxHttpRequest, match_id: int, command: Callable[..., None]) -> HttpResponse:
    """Resign or abort. An htmx request (the page's own form) gets no content when it worked: the
    page stays, and its socket shows the change as it shows every other one, pushed to every seat
    at once; a refusal gets the error line. A plain form post is redirected back to the match page
    with a message."""
    try:
        command(match_id=match_id, user=_user(request))
    except services.GameError as error:
        if request.htmx:
            return HttpResponse(render_error(error.message, code=getattr(error, "code", "refused")))
        messages.error(request, error.message)
    else:
        if request.htmx:
            return HttpResponse(status=204)
    return redirect("games:match", match_id)


def _to_table(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    target = selectors.table_landing(table_id=table_id)
    invite = request.POST.get("invite")
    if invite and target == reverse("games:table", args=[table_id]):
        target += f"?invite={invite}"
    return _redirect(request, target)


def _redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """A redirect that htmx follows as a page load (forms in socket-pushed fragments post via
    htmx, which adds the CSRF header)."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _first_error(form: TableCreateForm | BotFillForm | BotGameForm | ActionForm) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return ""
