"""Sending a thin event to a channel-layer group once the transaction commits.

Every app's services broadcast this way: a page's sockets hear that something changed only after
it is committed, so the socket that re-reads finds the change. Robust: a broadcast that fails (a
Redis hiccup) must not fail the committed change; sockets resync when they reconnect, and the
beat sweep re-announces every match in play.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def group_send_on_commit(group: str, event: dict[str, Any]) -> None:
    """``group_send(group, event)`` after the current transaction commits (at once outside one)."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, event)

    transaction.on_commit(send, robust=True)
