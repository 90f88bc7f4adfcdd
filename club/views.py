"""The club's front pages: the home page, the rules and a player's page (ratings, recent matches
and tournaments), composed from every app."""

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language

from accounts.models import User
from club.friends import blocked_by_viewer, friends_of
from club.home import current_tournaments, live_games, waiting_tables
from club.rules import rules_page, with_lessons
from games.words import pool_label
from history.selectors import row_outcome, user_history
from learn.lessons import lessons_by_section
from people.selectors import ties
from play.access import may_watch
from play.forms import BotGameForm
from ratings.charts import rating_chart
from ratings.elo import PROVISIONAL_GAMES, START_RATING, is_provisional
from ratings.selectors import HistoryPoint, user_rating_points, user_ratings
from tournaments.selectors import player_history

#: How long after signing up the home page greets a player as new rather than back.
NEWCOMER_FOR = timedelta(days=1)


def home(request: HttpRequest) -> HttpResponse:
    """A visitor's introduction; a signed-in player's games, tables, tournaments and quick play."""
    user = request.user
    if not isinstance(user, User):
        return render(request, "club/home.html")
    context = {
        "live_games": live_games(user),
        "waiting_tables": waiting_tables(user),
        "tournaments": current_tournaments(user),
        "bot_game_form": BotGameForm(),
        # "Welcome back" to someone who signed up a minute ago reads as a mistake.
        "newcomer": timezone.now() - user.date_joined < NEWCOMER_FOR,
    }
    return render(request, "club/home.html", context)


def rules(request: HttpRequest) -> HttpResponse:
    """The rules of every variant and table option, in the viewer's language (``club.rules``)."""
    language = "ru" if (get_language() or "en").startswith("ru") else "en"
    page = rules_page(language)
    lessons = {
        anchor: [(reverse("learn:lesson", args=[lesson.slug]), str(lesson.title)) for lesson in taught]
        for anchor, taught in lessons_by_section().items()
    }
    return render(request, "club/rules.html", {"rules": page, "html": with_lessons(page.html, lessons)})


#: How many recent matches the profile lists (the history page has them all).
RECENT_MATCHES = 10


def _first_rating(points: list[HistoryPoint]) -> float:
    """The rating before a pool's first game: where its chart starts (a bot's level start)."""
    return points[0].rating - points[0].delta if points else START_RATING


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
                start=_first_rating(points.get(rating.pool, [])),
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
        if may_watch(row.match, row.match.players.all(), request.user)
    ]
    viewer = request.user
    context = {
        "player": player,
        # The follow and block buttons, for a signed-in member looking at another human's page.
        "ties": (
            ties(viewer.pk, player.pk)
            if viewer.is_authenticated and viewer.pk != player.pk and not (player.is_bot or player.is_deleted)
            else None
        ),
        "ratings": ratings,
        "recent": recent,
        "tournaments": player_history(user=player),
        "provisional_games": PROVISIONAL_GAMES,
    }
    return render(request, "club/profile.html", context)


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    """Whom you follow, who of them is online or playing (one click to watch), and whom you blocked."""
    context = {"friends": friends_of(request.user), "blocked": blocked_by_viewer(request.user)}
    return render(request, "club/friends.html", context)


@login_required
def friends_panel(request: HttpRequest) -> HttpResponse:
    """The friends panel again (its own refresh every 30 s); ``?list=1``: the list alone."""
    if request.GET.get("list"):
        return render(request, "club/_friends_list.html", {"friends": friends_of(request.user)})
    return render(request, "club/_friends_panel.html", {"show": True, "friends": friends_of(request.user)})
