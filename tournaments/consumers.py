"""The websocket of a tournament page: it tells the page to fetch its live part again.

Nothing about the tournament crosses the channel layer but its id and version (see
``tournaments.services``). On each change the socket sends one hidden htmx element that makes the
browser GET ``/tournaments/<id>/live/`` with its own session, so every viewer gets their own
rendering (their next table, the organiser's controls with a valid CSRF token) and a draft stays
private. A (re)connecting socket is sent the same element, which heals any missed event.

A tournament game's page opens the same socket for its banner (``?match=<id>``): the element
then fetches ``/tournaments/<id>/banner/?match=<id>`` into ``#tournament-banner`` instead, so an
arena player sees their next game (and the clock) without leaving the finished one.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from tournaments import selectors
from tournaments.models import Tournament
from tournaments.services import tournament_group

#: Close codes: no such tournament (or a draft the viewer may not see).
CLOSE_NOT_FOUND = 4404


class TournamentConsumer(AsyncWebsocketConsumer):
    """``/ws/tournament/<id>/``: refresh the live part of one viewer's tournament page."""

    tournament_id: int
    version: int
    match_id: int | None

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user") or AnonymousUser()
        group = tournament_group(self.tournament_id)
        # In the group before the version is read: a change committed after the read is then
        # broadcast to this socket, and one committed before it is caught by the comparison below
        # (read first, a change in between was announced to nobody and the page stayed behind).
        await self.channel_layer.group_add(group, self.channel_name)
        version = await database_sync_to_async(_visible_version, thread_sensitive=False)(
            self.tournament_id, user
        )
        if version is None:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        page = _query_number(self.scope, "v")
        self.version = version if page is None else page
        self.match_id = _query_number(self.scope, "match")
        await self.accept()
        if version > self.version:  # changed between the page load and this socket
            await self.tournament_changed({"version": version})

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "version"):
            await self.channel_layer.group_discard(tournament_group(self.tournament_id), self.channel_name)

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        """The thin broadcast of ``tournaments.services``: ask the page to fetch its live part."""
        version = int(event.get("version", 0))
        if version <= self.version:
            return
        self.version = version
        await self.send(text_data=refresh_fragment(self.tournament_id, version, match_id=self.match_id))


def refresh_fragment(tournament_id: int, version: int, *, match_id: int | None = None) -> str:
    """A hidden element, swapped in out of band, that loads the live part into its place (or,
    with ``match_id``, that game's banner)."""
    if match_id is None:
        url, target = reverse("tournaments:live", args=[tournament_id]), "#tournament-live"
    else:
        url = f"{reverse('tournaments:banner', args=[tournament_id])}?match={match_id}"
        target = "#tournament-banner"
    return (
        f'<div id="tournament-refresh" hidden hx-swap-oob="true" hx-get="{url}" '
        f'hx-trigger="load" hx-target="{target}" hx-swap="outerHTML" '
        f'data-version="{version}"></div>'
    )


def _query_number(scope: dict[str, Any], name: str) -> int | None:
    """A number from the query string (``?v=`` the version the page was rendered at,
    ``?match=`` a banner's game), if it says (ASCII digits only: ``"²"`` passes ``str.isdigit``
    but not ``int``)."""
    value = parse_qs(scope.get("query_string", b"").decode()).get(name, [""])[0]
    return int(value) if value.isascii() and value.isdigit() else None


def _visible_version(tournament_id: int, user: Any) -> int | None:
    try:
        tournament = selectors.tournament_get(tournament_id=tournament_id)
    except Tournament.DoesNotExist:
        return None
    return tournament.version if selectors.may_see(tournament, user) else None
