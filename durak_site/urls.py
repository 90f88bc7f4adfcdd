"""HTTP routes. Websocket routes live in ``durak_site.routing``."""

from django.contrib import admin
from django.urls import include, path

from games import views as game_views
from tournaments import views as tournament_views

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    # Live play: the lobby keeps the global name the navigation links; the rest is namespaced.
    path("play/", game_views.lobby, name="play"),
    path("play/", include("games.urls")),
    # Ratings (the leaderboard) and match history: global names, the navigation links them.
    path("", include("accounts.rating_urls")),
    path("", include("games.history_urls")),
    # Tournaments: the list keeps the global name the navigation links; the rest is namespaced.
    path("tournaments/", tournament_views.tournament_list, name="tournaments"),
    path("tournaments/", include("tournaments.urls")),
]
