"""What live play says on the channel layer: its groups, its events, and when they are sent.

Nothing private ever crosses the channel layer: the events are thin, and every socket that hears
one renders its own viewer's fragments from the database (``games.live.consumers``).

* ``match_group(match_id)`` = ``"match-<id>"``:
  ``{"type": "match.changed", "match": id, "version": v}`` (``changed_event``)
* ``table_group(table_id)`` = ``"table-<id>"``: ``{"type": "table.changed", "table": id}``
  (seats taken or left, a match started: ``selectors.table_current_match`` tells where to go)
* ``LOBBY_GROUP`` = ``"lobby"``: ``{"type": "lobby.changed"}`` (re-read ``selectors.open_tables``)

The services announce a change after its commit (``match_changed``, ``table_changed``), so the
socket that re-reads finds it; ``matches_announce`` re-sends the version of every match in play
at once (beat's sweep: the safety net for a broadcast a dying process took with it).
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from durak_site.broadcast import group_send_on_commit
from games.live import selectors
from games.models import Match, Table

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    """The channel-layer group of a match's sockets."""
    return f"match-{match_id}"


def table_group(table_id: int) -> str:
    """The channel-layer group of a table page's sockets (before and between matches)."""
    return f"table-{table_id}"


def changed_event(match_id: int, version: int) -> dict[str, Any]:
    """The thin broadcast of a match at ``version`` (the only match event on the layer)."""
    return {"type": "match.changed", "match": match_id, "version": version}


def match_changed(match: Match) -> None:
    """After commit: tell the match's sockets its new version."""
    group_send_on_commit(match_group(match.pk), changed_event(match.pk, match.version))


def table_changed(table: Table) -> None:
    """After commit: tell the table page and the lobby that the table changed."""
    group_send_on_commit(table_group(table.pk), {"type": "table.changed", "table": table.pk})
    group_send_on_commit(LOBBY_GROUP, {"type": "lobby.changed"})


def lobby_changed() -> None:
    """After the commit: every lobby page re-renders its list (a host went away or came back)."""
    group_send_on_commit(LOBBY_GROUP, {"type": "lobby.changed"})


def matches_announce() -> int:
    """Broadcast the current version of every match in play now; returns how many.

    The safety net for a broadcast that never left: a process that dies between a move's commit
    and its after-commit work takes the "changed" event with it. Sockets that already show that
    version ignore the event, so announcing costs the up-to-date ones nothing."""
    layer = get_channel_layer()
    if layer is None:
        return 0
    running = list(selectors.active_matches().values_list("pk", "version"))

    async def announce() -> None:
        for pk, version in running:
            await layer.group_send(match_group(pk), changed_event(pk, version))

    async_to_sync(announce)()
    return len(running)
