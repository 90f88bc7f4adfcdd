"""Profile pages and account deletion (allauth serves login, signup and passwords)."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.elo import PROVISIONAL_GAMES, is_provisional
from games.history import row_outcome, user_history
from games.history_forms import pool_label
from games.presenters import may_watch
from tournaments.selectors import player_history

from .charts import rating_chart
from .forms import DeleteAccountForm
from .models import User
from .rating_selectors import user_rating_points, user_ratings
from .services import user_anonymise

#: How many recent matches the profile lists (the history page has them all).
RECENT_MATCHES = 10


def profile(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's public page: ratings per pool with their history charts, recent matches and
    tournaments."""
    player = get_object_or_404(User, pk=pk)
    points = user_rating_points(user=player)
    ratings = [
        {
            "rating": rating,
            "name": pool_label(rating.pool),
            "provisional": is_provisional(rating.games),
            "chart": rating_chart(
                [p.rating for p in points.get(rating.pool, [])],
                [p.match_id for p in points.get(rating.pool, [])],
            ),
        }
        for rating in user_ratings(user=player)
    ]
    recent = [
        {
            "row": row,
            "outcome": row_outcome(row),
            "opponents": [p for p in row.match.players.all() if p.user_id != pk],
        }
        for row in user_history(user=player)[:RECENT_MATCHES]
        if may_watch(row.match, request.user)
    ]
    context = {
        "player": player,
        "ratings": ratings,
        "recent": recent,
        "tournaments": player_history(user=player),
        "provisional_games": PROVISIONAL_GAMES,
    }
    return render(request, "accounts/profile.html", context)


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
