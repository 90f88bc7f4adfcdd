"""HTTP routes of pairing, mounted under ``/pair/`` (the grid's socket: ``pairing.routing``)."""

from django.urls import path

from pairing import views

app_name = "pairing"

urlpatterns = [
    path("grid/", views.grid, name="grid"),
    path("new/", views.seek_new, name="seek_new"),
    path("seek/", views.seek_open, name="seek_open"),
    path("seek/cancel/", views.seek_cancel, name="seek_cancel"),
    path("seek/<int:seek_id>/bots/", views.seek_bots, name="seek_bots"),
    path("challenge/<int:player_id>/", views.challenge_new, name="challenge_new"),
    path("challenges/<int:challenge_id>/", views.challenge_detail, name="challenge"),
    path("challenges/<int:challenge_id>/<slug:answer>/", views.challenge_answer, name="challenge_answer"),
    path("again/<int:match_id>/bots/", views.again_bots, name="again_bots"),
    path("alerts/", views.alerts_settings, name="alerts"),
]
