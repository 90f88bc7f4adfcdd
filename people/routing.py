"""Websocket routes of the people app (collected by ``durak_site.routing``)."""

from django.urls import path

from .consumers import PersonalConsumer

websocket_urlpatterns = [path("ws/me/", PersonalConsumer.as_asgi(), name="ws-me")]
