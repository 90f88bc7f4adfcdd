"""HTTP routes of live play, mounted under ``/play/`` (websockets: ``play.routing``)."""

from django.urls import path

from play import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_create, name="table_create"),
    path("bots/", views.bot_game, name="bot_game"),
    path("table/<int:table_id>/", views.table_detail, name="table"),
    path("table/<int:table_id>/sit/", views.seat_take, name="seat_take"),
    path("table/<int:table_id>/leave/", views.seat_leave, name="seat_leave"),
    path("table/<int:table_id>/bots/", views.seats_fill, name="seats_fill"),
    path("table/<int:table_id>/seed/", views.seed_contribute, name="seed_contribute"),
    path("invite/<str:token>/", views.table_invite, name="table_invite"),
    path("match/<int:match_id>/", views.match_detail, name="match"),
    path("match/<int:match_id>/action/", views.match_action, name="match_action"),
    path("match/<int:match_id>/resign/", views.match_resign, name="match_resign"),
    path("match/<int:match_id>/abort/", views.match_abort, name="match_abort"),
    path("match/<int:match_id>/again/", views.match_again, name="match_again"),
]
