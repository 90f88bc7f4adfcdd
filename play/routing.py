"""Websocket routes of live play (collected by ``durak_site.routing``)."""

from django.urls import path

from play.consumers import LobbyConsumer, MatchConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi(), name="ws-match"),
    path("ws/lobby/", LobbyConsumer.as_asgi(), name="ws-lobby"),
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi(), name="ws-table"),
]
