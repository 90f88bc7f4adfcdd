"""The tournament page's websocket: a change tells every open page to fetch its live part (each
viewer with their own session), a page opened before a change catches up on connect, and a draft
stays closed to strangers."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import User
from tests.play.services_support import make_user
from tests.tournaments.support import open_with_bots, tournament_settings
from tournaments import consumers, services
from tournaments.models import Tournament
from tournaments.routing import websocket_urlpatterns
from tournaments.services import locking

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TIMEOUT = 5


async def connect(
    path: str, user: User | AnonymousUser
) -> tuple[bool, int | str | None, WebsocketCommunicator]:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user
    connected, code = await communicator.connect(timeout=TIMEOUT)
    return connected, code, communicator


async def test_a_change_asks_every_open_page_to_refresh() -> None:
    organiser = await sync_to_async(make_user)("organiser")
    tournament: Tournament = await sync_to_async(open_with_bots)(organiser, 2)
    sockets = []
    for viewer in (organiser, AnonymousUser()):
        connected, _code, socket = await connect(
            f"/ws/tournament/{tournament.pk}/?v={tournament.version}", viewer
        )
        assert connected
        sockets.append(socket)
    await sync_to_async(services.tournament_start)(tournament_id=tournament.pk, user=organiser)
    live = reverse("tournaments:live", args=[tournament.pk])
    for socket in sockets:
        frame = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="tournament-refresh"' in frame and f'hx-get="{live}"' in frame and "hx-swap-oob" in frame
        assert "Bot" not in frame  # nothing about the tournament itself crosses the socket
        await socket.disconnect()


async def test_a_page_behind_the_current_version_catches_up_on_connect() -> None:
    organiser = await sync_to_async(make_user)("organiser")
    tournament: Tournament = await sync_to_async(open_with_bots)(organiser, 2)
    connected, _code, socket = await connect(f"/ws/tournament/{tournament.pk}/?v=0", AnonymousUser())
    assert connected
    frame = await socket.receive_from(timeout=TIMEOUT)
    assert 'id="tournament-refresh"' in frame
    await socket.disconnect()


async def test_a_change_committed_while_the_socket_connects_reaches_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tournament changes right after the connecting socket read its version (an arena player's
    page that reloads as their game is dealt): the socket was already in the group, so the change's
    broadcast reaches it and the page refreshes."""
    organiser = await sync_to_async(make_user)("organiser")
    tournament: Tournament = await sync_to_async(open_with_bots)(organiser, 2)
    read = consumers._visible_version

    def read_then_change(tournament_id: int, user: User | AnonymousUser) -> int | None:
        version = read(tournament_id, user)
        locking.tournament_changed(Tournament.objects.get(pk=tournament_id))  # one change, nothing after it
        return version

    monkeypatch.setattr(consumers, "_visible_version", read_then_change)
    await sync_to_async(tournament.refresh_from_db)()  # the page's version: the current one
    path = f"/ws/tournament/{tournament.pk}/?v={tournament.version}"
    connected, _code, socket = await connect(path, organiser)
    assert connected
    frame = await socket.receive_from(timeout=TIMEOUT)
    assert 'id="tournament-refresh"' in frame
    await socket.disconnect()


async def test_a_draft_or_a_missing_tournament_is_closed_to_strangers() -> None:
    organiser = await sync_to_async(make_user)("organiser")
    draft = await sync_to_async(services.tournament_create)(
        organiser=organiser, settings=tournament_settings()
    )
    stranger = await sync_to_async(make_user)("stranger")
    for path in (f"/ws/tournament/{draft.pk}/", "/ws/tournament/99999/"):
        connected, code, _socket = await connect(path, stranger)
        assert not connected and code == 4404
    connected, _code, socket = await connect(f"/ws/tournament/{draft.pk}/", organiser)
    assert connected
    await socket.disconnect()
