"""Profile pages and account deletion (allauth serves login, signup and passwords)."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .forms import DeleteAccountForm
from .models import User
from .services import user_anonymise


def profile(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's public page; later issues add ratings and recent games."""
    player = get_object_or_404(User, pk=pk)
    return render(request, "accounts/profile.html", {"player": player})


@login_required
def me(request: HttpRequest) -> HttpResponse:
    return redirect("accounts:profile", pk=request.user.pk)


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
