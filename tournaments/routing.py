"""Websocket routes of tournaments (collected by ``durak_site.routing``)."""

from django.urls import path

from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi(), name="ws-tournament"),
]
