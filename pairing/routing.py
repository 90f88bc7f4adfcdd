"""Websocket routes of pairing (collected by ``durak_site.routing``)."""

from django.urls import path

from pairing.consumers import GridConsumer

websocket_urlpatterns = [path("ws/pairing/", GridConsumer.as_asgi(), name="ws-pairing")]
