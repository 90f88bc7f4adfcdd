"""Pages of pairing: the grid (its "Play now" cells and the custom seek), challenges and the
alert settings. Thin: parse, call one service, render; a refusal is a message, never a 500."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from durak_site.errors import Refused
from durak_site.http import HtmxHttpRequest
from pairing import challenges, rematch, selectors, services
from pairing.forms import AlertsForm, ChallengeForm, SeekForm
from pairing.models import Alerts, Challenge
from pairing.presenters import present_challenge, present_grid
from play import selectors as game_selectors
from play.forms import BotFillForm


def grid(request: HttpRequest) -> HttpResponse:
    """The quick-pairing grid alone (the partial the home page and the lobby include)."""
    return render(request, "pairing/_grid.html", present_grid(request.user))


@login_required
def seek_new(request: HtmxHttpRequest) -> HttpResponse:
    """The custom seek: any setup, and the rating range of a rated one."""
    form = SeekForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            return _seek(request, form)
        messages.error(request, _first_error(form))
    return render(request, "pairing/seek_new.html", {"form": form})


@login_required
@require_POST
def seek_open(request: HtmxHttpRequest) -> HttpResponse:
    """Play now, from a cell of the grid (or the custom form)."""
    form = SeekForm(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return _back(request)
    return _seek(request, form)


@login_required
@require_POST
def seek_cancel(request: HtmxHttpRequest) -> HttpResponse:
    services.seek_cancel(user_id=_user(request).pk)
    return _back(request)


@login_required
@require_POST
def seek_bots(request: HtmxHttpRequest, seek_id: int) -> HttpResponse:
    """The waiting player chose to play now with bots in the seats nobody came for."""
    form = BotFillForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("There is no bot of that level."))
        return _back(request)
    try:
        table = services.seek_fill_with_bots(
            user=_user(request), seek_id=seek_id, level=form.cleaned_data["level"]
        )
    except Refused as error:
        messages.error(request, error.message)
        return _back(request)
    return _go(request, game_selectors.table_landing(table_id=table.pk))


@login_required
def challenge_new(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    """Challenge ``player_id``: the form starts from the last game the two played (or the match
    named by ``?match=``)."""
    challengeable = Q(is_bot=False) | Q(bot_level=User.BotLevel.PROGRAM)
    target = get_object_or_404(User.objects.filter(challengeable), pk=player_id, deleted_at__isnull=True)
    me = _user(request)
    initial = selectors.challenge_initial(me, target, request.GET.get("match"))
    form = ChallengeForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            try:
                challenge = challenges.challenge_send(challenger=me, challenged=target, setup=form.setup)
            except Refused as error:
                messages.error(request, error.message)
            else:
                return _go(request, reverse("pairing:challenge", args=[challenge.pk]))
        else:
            messages.error(request, _first_error(form))
    return render(request, "pairing/challenge_new.html", {"form": form, "target": target})


@login_required
def challenge_detail(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """A challenge, for its two players only: accept or decline it, or withdraw it."""
    challenge = (
        Challenge.objects.select_related("challenger", "challenged", "table").filter(pk=challenge_id).first()
    )
    if challenge is None or request.user.pk not in (challenge.challenger_id, challenge.challenged_id):
        raise Http404
    if challenge.status == Challenge.Status.ACCEPTED and challenge.table_id:
        match = challenge.table.matches.order_by("number").first() if challenge.table else None
        if match is not None:
            return redirect("games:match", match.pk)
        return redirect("games:table", challenge.table_id)  # its deal waits for the values
    context = present_challenge(challenge) | {"is_open": challenge.is_open()}
    return render(request, "pairing/challenge.html", context)


@login_required
@require_POST
def challenge_answer(request: HtmxHttpRequest, challenge_id: int, answer: str) -> HttpResponse:
    """``accept``, ``decline`` (the challenged player) or ``cancel`` (the challenger)."""
    user = _user(request)
    try:
        if answer == "accept":
            table = challenges.challenge_accept(challenge_id=challenge_id, user=user)
            return _go(request, game_selectors.table_landing(table_id=table.pk))
        if answer == "decline":
            challenges.challenge_decline(challenge_id=challenge_id, user=user)
        elif answer == "cancel":
            challenges.challenge_cancel(challenge_id=challenge_id, user=user)
        else:
            raise Http404
    except Refused as error:
        messages.error(request, error.message)
    return _back(request, default=reverse("home"))


@login_required
@require_POST
def again_bots(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Play again now, bots taking the seats of those who did not answer."""
    form = BotFillForm(request.POST)
    back = reverse("games:match", args=[match_id])
    if not form.is_valid():
        messages.error(request, _("There is no bot of that level."))
        return _go(request, back)
    try:
        match = rematch.again_with_bots(
            match_id=match_id, user=_user(request), level=form.cleaned_data["level"]
        )
    except Refused as error:
        messages.error(request, error.message)
        return _go(request, back)
    return _go(request, reverse("games:match", args=[match.pk]))


@login_required
def alerts_settings(request: HttpRequest) -> HttpResponse:
    """How the player is told that a match started, a challenge came or it is their turn."""
    user = _user(request)
    alerts = Alerts.objects.filter(user=user).first() or Alerts(user=user)
    form = AlertsForm(request.POST or None, instance=alerts)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your alert settings are saved."))
        return redirect("pairing:alerts")
    return render(request, "pairing/alerts.html", {"form": form})


# --- helpers ---------------------------------------------------------------------------------


def _seek(request: HtmxHttpRequest, form: SeekForm) -> HttpResponse:
    try:
        seek = services.seek_open(user=_user(request), setup=form.setup, rating_range=form.rating_range_value)
    except Refused as error:
        messages.error(request, error.message)
        # The page again, not only the grid: the grid fragment has no room for the message.
        return _back(request, default=reverse("play"))
    if seek.table_id is not None:
        match = seek.table.matches.order_by("number").first() if seek.table else None
        if match is not None:
            return _go(request, reverse("games:match", args=[match.pk]))
    return _back(request)


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required ran
    return user


def _back(request: HtmxHttpRequest, default: str | None = None) -> HttpResponse:
    """The grid again for htmx (it swaps itself), else the page the form was on."""
    if request.htmx and default is None:
        return render(request, "pairing/_grid.html", present_grid(request.user))
    target = request.POST.get("next") or default or reverse("play")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("play")
    return _go(request, target)


def _go(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _first_error(form: SeekForm | ChallengeForm) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return _("This is not possible.")
