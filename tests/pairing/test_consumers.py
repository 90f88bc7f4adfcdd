"""The sockets of pairing: the grid socket sends the grid at once and again whenever the pool
changes (each viewer's own grid: a waiting player sees their seek, others only the counts), and
ignores whatever a client sends; a pairing reaches both players' personal sockets (``/ws/me/``)
with the way to their match, a challenge reaches the challenged player's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.models import Match
from pairing import challenges, services
from pairing.routing import websocket_urlpatterns as pairing_routes
from pairing.setups import GRID
from people.routing import websocket_urlpatterns as people_routes
from play import services as game_services
from tests.play.services_support import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TIMEOUT = 5
DUEL = GRID[0]


async def open_socket(path: str, user: Any) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(pairing_routes + people_routes), path)
    communicator.scope["user"] = user
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    return communicator


@pytest.fixture(autouse=True)
def _no_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("play.services.turn.enqueue_on_commit", lambda *a, **k: None)
    monkeypatch.setattr("pairing.receivers.enqueue_on_commit", lambda *a, **k: None)


async def test_the_grid_socket_sends_each_viewer_their_grid_whenever_the_pool_changes() -> None:
    alice = await sync_to_async(make_user)("alice")
    mine = await open_socket("/ws/pairing/", alice)
    anonymous = await open_socket("/ws/pairing/", AnonymousUser())
    for socket in (mine, anonymous):
        first = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="pairing-grid"' in first and 'hx-swap-oob="true"' in first
        assert 'data-waiting="0"' in first
    await sync_to_async(services.seek_open)(user=alice, setup=DUEL)
    hers = await mine.receive_from(timeout=TIMEOUT)
    theirs = await anonymous.receive_from(timeout=TIMEOUT)
    assert 'data-waiting="1"' in hers and 'data-waiting="1"' in theirs
    assert "data-seek=" in hers and "data-seek=" not in theirs
    await mine.send_to(text_data="garbage" * 100)
    await mine.send_to(bytes_data=b"\x00\xff")
    assert await mine.receive_nothing(timeout=0.2)
    await mine.disconnect()
    await anonymous.disconnect()


async def test_a_pairing_takes_both_players_to_their_match_through_their_personal_sockets() -> None:
    alice = await sync_to_async(make_user)("alice")
    bob = await sync_to_async(make_user)("bob")
    hers = await open_socket("/ws/me/", alice)
    his = await open_socket("/ws/me/", bob)
    await sync_to_async(services.seek_open)(user=alice, setup=DUEL)
    await sync_to_async(services.seek_open)(user=bob, setup=DUEL)
    # Both pages are open: the table asks each for its value for the deal (docs/rules.md
    # §"Fair deals" step 3), and the last value deals.
    for user, socket, value in ((alice, hers, "a" * 32), (bob, his, "b" * 32)):
        wanted = json.loads(await socket.receive_from(timeout=TIMEOUT))
        assert wanted["kind"] == "deal.wanted" and wanted["url"] == f"/play/table/{wanted['table']}/seed/"
        await sync_to_async(game_services.seed_contribute)(
            table_id=wanted["table"], user=user, value=value, commitment=wanted["commitment"]
        )
    match = await sync_to_async(Match.objects.get)()
    for socket in (hers, his):
        frame = json.loads(await socket.receive_from(timeout=TIMEOUT))
        assert frame == {
            "kind": "match.started",
            "why": "deal",
            "match": match.pk,
            "url": f"/play/match/{match.pk}/",
        }
    await hers.disconnect()
    await his.disconnect()


async def test_a_challenge_arrives_on_the_challenged_players_page_and_nowhere_else() -> None:
    alice = await sync_to_async(make_user)("alice")
    bob = await sync_to_async(make_user)("bob")
    hers = await open_socket("/ws/me/", alice)
    his = await open_socket("/ws/me/", bob)
    challenge = await sync_to_async(challenges.challenge_send)(challenger=alice, challenged=bob, setup=DUEL)
    frame = json.loads(await his.receive_from(timeout=TIMEOUT))
    assert frame["kind"] == "challenge.received" and frame["id"] == challenge.pk
    assert frame["url"] == f"/pair/challenges/{challenge.pk}/"
    assert await hers.receive_nothing(timeout=0.2)
    await sync_to_async(challenges.challenge_cancel)(challenge_id=challenge.pk, user=alice)
    assert json.loads(await his.receive_from(timeout=TIMEOUT)) == {
        "kind": "challenge.gone",
        "id": challenge.pk,
    }
    await hers.disconnect()
    await his.disconnect()
