"""The follow and block buttons of a player's page: POST (with CSRF), answered with the buttons'
fragment for htmx, or a redirect back to the profile without it."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.models import User
from durak_site.errors import Refused

from . import selectors, services

TIES: dict[str, Callable[[User, User], None]] = {
    "follow": services.follow,
    "unfollow": services.unfollow,
    "block": services.block,
    "unblock": services.unblock,
}


@login_required
@require_POST
def tie(request: HttpRequest, pk: int, verb: str) -> HttpResponse:
    """Follow, unfollow, block or unblock the player ``pk``; a refusal is told, nothing changes."""
    user = request.user
    assert isinstance(user, User)  # login_required ran
    if verb not in TIES:
        raise Http404
    target = get_object_or_404(User, pk=pk, is_bot=False, deleted_at__isnull=True)
    error = ""
    try:
        TIES[verb](user, target)
    except Refused as refusal:
        error = refusal.message
    if not request.headers.get("HX-Request"):
        if error:
            messages.error(request, error)
        return redirect("club:profile", pk=pk)
    context = {"player": target, "ties": selectors.ties(user.pk, target.pk), "ties_error": error}
    return render(request, "people/_ties.html", context)
