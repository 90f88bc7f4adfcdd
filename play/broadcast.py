"""What live play says on the channel layer: its groups, its events, and when they are sent.

Nothing private ever crosses the channel layer: the events are thin, and every socket that hears
one renders its own viewer's fragments from the database (``play.consumers``).

* ``match_group(match_id)`` = ``"match-<id>"``:
  ``{"type": "match.changed", "match": id, "version": v}`` (``changed_event``; a change's own
  adds ``"at"``, its commit's time, which the sockets measure their push from)
* ``table_group(table_id)`` = ``"table-<id>"``: ``{"type": "table.changed", "table": id}``
  (seats taken or left, a match started: ``selectors.table_current_match`` tells where to go)
* ``LOBBY_GROUP`` = ``"lobby"``: ``{"type": "lobby.changed"}`` (re-read ``selectors.open_tables``)
* a player's personal group (``people.consumers.personal_group``, the socket every page opens):
  ``{"kind": "deal.wanted", "table": id, "commitment": c, "url": u}`` (send a value for the
  deal committed to by ``c`` to ``u``: ``static/js/fair_seed.js``) and
  ``{"kind": "match.started", "why": "deal", "match": id, "url": u}`` (a deal that waited for
  values was made: go to the match, ``static/js/pairing.js``)

The services announce a change after its commit (``match_changed``, ``table_changed``), so the
socket that re-reads finds it; ``matches_announce`` re-sends the version of every match in play
at once (beat's sweep: the safety net for a broadcast a dying process took with it).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.urls import reverse

from durak_site.broadcast import group_send_on_commit
from games.models import Match, Table
from people.consumers import personal_group
from play import selectors

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
    """After commit: tell the match's sockets its new version, and when it committed (taken at the
    change's last statement, for ``durak_site.metrics.MOVE_PUSH_SECONDS``)."""
    event = {**changed_event(match.pk, match.version), "at": time.time()}
    group_send_on_commit(match_group(match.pk), event)


def table_changed(table: Table) -> None:
    """After commit: tell the table page and the lobby that the table changed."""
    group_send_on_commit(table_group(table.pk), {"type": "table.changed", "table": table.pk})
    group_send_on_commit(LOBBY_GROUP, {"type": "lobby.changed"})


def deal_wanted(table: Table, user_ids: Iterable[int], commitment: str) -> None:
    """After commit: ask the pages of ``user_ids`` for their values for the table's next deal."""
    url = reverse("games:seed_contribute", args=[table.pk])
    payload = {"kind": "deal.wanted", "table": table.pk, "commitment": commitment, "url": url}
    for user_id in user_ids:
        group_send_on_commit(personal_group(user_id), {"type": "personal.event", "payload": payload})


def dealt_later(match: Match, user_ids: Iterable[int]) -> None:
    """After commit: take ``user_ids`` to the match a table dealt once its wait for values was
    over (their own pages may be anywhere by then)."""
    url = reverse("games:match", args=[match.pk])
    payload = {"kind": "match.started", "why": "deal", "match": match.pk, "url": url}
    for user_id in user_ids:
        group_send_on_commit(personal_group(user_id), {"type": "personal.event", "payload": payload})


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
