"""The websocket route table.

Each app that serves websockets exposes ``websocket_urlpatterns`` in its ``routing.py``; add the
module to ``APP_ROUTING_MODULES`` and its routes are appended here (e.g. ``"play.routing"``).
Last comes the catch-all ``unknown_path``, which closes a socket no route serves.
"""

from importlib import import_module
from typing import Any, cast

from django.urls import URLPattern, path, re_path

from .consumers import EchoConsumer, unknown_path

#: Modules whose ``websocket_urlpatterns`` are collected, in order.
APP_ROUTING_MODULES: tuple[str, ...] = (
    "play.routing",
    "play.chat.routing",
    "tournaments.routing",
    "people.routing",
    "pairing.routing",
)

site_websocket_urlpatterns = [path("ws/echo/", EchoConsumer.as_asgi(), name="ws-echo")]


def collect_websocket_urlpatterns() -> list[URLPattern]:
    """The site's routes followed by every app's and the catch-all, as one list for ``URLRouter``."""
    patterns = list(site_websocket_urlpatterns)
    for module in APP_ROUTING_MODULES:
        patterns.extend(import_module(module).websocket_urlpatterns)
    patterns.append(re_path(r"", cast(Any, unknown_path), name="ws-unknown"))  # an ASGI app, not a view
    return patterns


websocket_urlpatterns = collect_websocket_urlpatterns()
