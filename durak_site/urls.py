"""HTTP routes. Websocket routes live in ``durak_site.routing``."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from club import views as club_views
from play import views as game_views
from tournaments import views as tournament_views

# The admin has no login form of its own: signing in goes through allauth's, with its limits on
# failed attempts per address and per account (ACCOUNT_RATE_LIMITS), instead of Django's admin
# form, which has none. A signed-in member who is not staff gets 403.
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("", club_views.home, name="home"),
    path("rules/", club_views.rules, name="rules"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("club.urls")),
    path("", include("people.urls")),
    # Live play: the lobby keeps the global name the navigation links; the rest is namespaced.
    path("play/", game_views.lobby, name="play"),
    path("play/", include("play.urls")),
    # Ratings (the leaderboard) and match history: global names, the navigation links them.
    path("", include("ratings.urls")),
    path("", include("history.urls")),
    # Tournaments: the list keeps the global name the navigation links; the rest is namespaced.
    path("tournaments/", tournament_views.tournament_list, name="tournaments"),
    path("tournaments/", include("tournaments.urls")),
    # The Bot API for outside programs, its documentation and the bot account page.
    path("", include("botapi.urls")),
    # Quick pairing, challenges and alert settings.
    path("pair/", include("pairing.urls")),
    # Lessons: Learn Durak (docs/learn.md).
    path("learn/", include("learn.urls")),
    # The analysis board (docs/analysis.md).
    path("analysis/", include("analysis.urls")),
    # Puzzles mined from finished games (docs/puzzles.md).
    path("puzzles/", include("puzzles.urls")),
    # Health, metrics and the staff's ops page (docs/operations.md).
    path("ops/", include("ops.urls")),
]
