"""Websocket route of the table chat (collected by ``durak_site.routing``)."""

from django.urls import path

from .consumers import ChatConsumer

websocket_urlpatterns = [path("ws/chat/<int:match_id>/", ChatConsumer.as_asgi(), name="ws-chat")]
