"""HTTP routes of tournaments, mounted under ``/tournaments/`` (websockets: ``tournaments.routing``).

The list itself is ``durak_site.urls``'s global ``tournaments`` route, the name the navigation links.
"""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("new/", views.tournament_create, name="create"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/live/", views.tournament_live, name="live"),
    path("<int:tournament_id>/edit/", views.tournament_edit, name="edit"),
    path("<int:tournament_id>/register/", views.register, name="register"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:tournament_id>/check-in/", views.check_in, name="check_in"),
    path("<int:tournament_id>/arena/pause/", views.arena_pause, name="arena_pause"),
    path("<int:tournament_id>/arena/resume/", views.arena_resume, name="arena_resume"),
    path("<int:tournament_id>/arena/berserk/", views.arena_berserk, name="arena_berserk"),
    path("<int:tournament_id>/banner/", views.tournament_banner, name="banner"),
    path("<int:tournament_id>/bots/", views.bots_add, name="bots"),
    path("<int:tournament_id>/remove/<int:player_id>/", views.player_remove, name="remove"),
    path("<int:tournament_id>/correct/<int:pairing_id>/", views.result_correct, name="correct"),
    path("<int:tournament_id>/<slug:action>/", views.organiser_action, name="action"),
]
