"""Pages of live play: the lobby, creating a table, the table page, and the match page.

Thin on purpose: parse the request, call one service or selector, render. A refused request
(``GameError``) becomes a message for the user, never a 500. The match page and the POST fallback
of a move render only the viewer's context from ``games.live.presenters``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from durak_site.http import HtmxHttpRequest
from games.live import selectors, services
from games.live.forms import ActionForm, BotFillForm, TableCreateForm
from games.live.fragments import match_fragments
from games.live.loaded import LoadedMatch
from games.live.presenters import may_watch, present_lobby, present_match, present_table
from games.models import Table


def lobby(request: HttpRequest) -> HttpResponse:
    """Open public tables (updated live over ``/ws/lobby/``) and the visitor's own tables."""
    context = {
        "tables": present_lobby(selectors.open_tables()),
        "my_tables": selectors.user_tables(user=request.user) if request.user.is_authenticated else [],
        "my_matches": selectors.user_active_matches(user=request.user)
        if request.user.is_authenticated
        else [],
    }
    return render(request, "games/lobby.html", context)


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


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table before and between matches: seats, invite link, bots; a running match's link."""
    table = _table_or_404(table_id)
    token = request.GET.get("invite", "")
    user = request.user
    seated = user.is_authenticated and any(s.user_id == user.pk for s in table.seats.all())
    if table.private and not seated and table.creator_id != user.pk and token != table.invite_token:
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
    result: LoadedMatch | None = None
    if not form.is_valid():
        error = _first_error(form)
    else:
        try:
            result = services.action_apply(
                match_id=match_id,
                user=_user(request),
                action_text=form.cleaned_data["action"],
                expected_version=form.cleaned_data["version"],
            )
        except services.GameError as refused:
            error = refused.message
    if request.htmx:
        loaded = result if result is not None else _match_or_404(match_id)
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
        new_match = services.play_again(match_id=match_id, user=_user(request))
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
    try:
        command(match_id=match_id, user=_user(request))
    except services.GameError as error:
        messages.error(request, error.message)
    return _redirect(request, reverse("games:match", args=[match_id]))


def _to_table(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    target = reverse("games:table", args=[table_id])
    invite = request.POST.get("invite")
    if invite:
        target += f"?invite={invite}"
    match = selectors.table_current_match(table_id=table_id)
    if match is not None and match.is_active:
        target = reverse("games:match", args=[match.pk])
    return _redirect(request, target)


def _redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """A redirect that htmx follows as a page load (forms in socket-pushed fragments post via
    htmx, which adds the CSRF header)."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _first_error(form: TableCreateForm | BotFillForm | ActionForm) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return ""
