"""The signed-in user's own account: the way to their page, and deleting the account (allauth serves
login, signup and passwords; the player's page is ``club.views.profile``)."""

from allauth.core.ratelimit import consume_or_429
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from . import blind_mode as blind
from .forms import DeleteAccountForm, DisplayNameChangeForm
from .models import User
from .services import (
    DISPLAY_NAME_CHANGE_DAYS,
    NameChangeTooSoon,
    display_name_change,
    display_name_next_change,
    user_anonymise,
)


@login_required
def me(request: HttpRequest) -> HttpResponse:
    return redirect("club:profile", pk=request.user.pk)


@login_required
@require_http_methods(["GET", "POST"])
def change_name(request: HttpRequest) -> HttpResponse:
    """Change the display name: the signup's name rules, and once in 30 days."""
    user = request.user
    assert isinstance(user, User)
    form = DisplayNameChangeForm(request.POST or None, user=user, initial={"display_name": user.display_name})
    if request.method == "POST" and form.is_valid():
        try:
            display_name_change(user=user, name=form.cleaned_data["display_name"])
        except NameChangeTooSoon:
            form.add_error(None, _("You changed your display name less than 30 days ago."))
        else:
            messages.success(request, _("Your display name is now %(name)s.") % {"name": user.display_name})
            return redirect("accounts:me")
    context = {"form": form, "next_change": display_name_next_change(user), "days": DISPLAY_NAME_CHANGE_DAYS}
    return render(request, "accounts/name.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    form = DeleteAccountForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        user_anonymise(user=user)
        logout(request)
        messages.success(request, _("Your account has been deleted."))
        return redirect("home")
    return render(request, "accounts/delete.html", {"form": form})


@login_required
@require_POST
def chat_text(request: HttpRequest) -> HttpResponse:
    """Turn free text in table chat on (``on=1``) or off; back to ``next`` (a page of this site)
    or the player's page."""
    user = request.user
    assert isinstance(user, User)
    user.chat_free_text = request.POST.get("on") == "1"
    user.save(update_fields=["chat_free_text"])
    if user.chat_free_text:
        messages.success(request, _("Free text in table chat is on."))
    else:
        messages.success(request, _("Table chat shows quick phrases only."))
    target = request.POST.get("next", "")
    safe = {request.get_host()}
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=safe, require_https=request.is_secure()):
        return redirect("club:profile", pk=user.pk)
    return redirect(target)


@require_POST
def blind_mode(request: HttpRequest) -> HttpResponse:
    """Turn blind mode on (``on=1``) or off, for the account or the visitor's browser; back to
    ``next`` (a page of this site) or the home page. Limited per address, then per account
    (``ACCOUNT_RATE_LIMITS``)."""
    refused: HttpResponse | None = consume_or_429(request, action="blind_mode")
    if refused is None and request.user.is_authenticated:
        refused = consume_or_429(request, action="blind_mode_account")
    if refused is not None:
        return refused
    on = request.POST.get("on") == "1"
    target = request.POST.get("next", "")
    safe = {request.get_host()}
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=safe, require_https=request.is_secure()):
        target = "/"
    response = redirect(target)
    blind.remember(request, response, on=on)
    messages.success(request, _("Blind mode is on.") if on else _("Blind mode is off."))
    return response
