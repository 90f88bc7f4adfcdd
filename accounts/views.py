"""The signed-in user's own account: the way to their page, and deleting the account (allauth serves
login, signup and passwords; the player's page is ``club.views.profile``)."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .forms import DeleteAccountForm
from .models import User
from .services import user_anonymise


@login_required
def me(request: HttpRequest) -> HttpResponse:
    return redirect("club:profile", pk=request.user.pk)


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
