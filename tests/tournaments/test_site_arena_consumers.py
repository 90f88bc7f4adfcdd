"""An arena over the tournament socket: every recorded game, join and pause tells the open pages
to fetch their live part (the leaderboard) again, and a game's page opens the same socket for
its banner (``?match=<id>``), which then fetches the banner instead. Only ids and versions
cross the socket."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import User
from games.models import Match
from tests.play.services_support import make_user
from tests.tournaments.support import arena_matches, finish_one, open_arena
from tournaments import services
from tournaments.consumers import refresh_fragment
from tournaments.models import Tournament
from tournaments.routing import websocket_urlpatterns

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TIMEOUT = 5


async def connect(path: str, user: User | AnonymousUser) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    return communicator


def started_arena() -> tuple[Tournament, User, Match]:
    organiser = make_user("organiser")
    tournament = open_arena(organiser, 3)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    return tournament, organiser, arena_matches(tournament)[0]


async def test_a_recorded_game_refreshes_the_leaderboard_and_the_games_banner() -> None:
    tournament, _organiser, match = await sync_to_async(started_arena)()
    page = await connect(f"/ws/tournament/{tournament.pk}/?v={tournament.version}", AnonymousUser())
    banner = await connect(
        f"/ws/tournament/{tournament.pk}/?v={tournament.version}&match={match.pk}", AnonymousUser()
    )
    await sync_to_async(finish_one)(match)
    frame = await page.receive_from(timeout=TIMEOUT)
    live = reverse("tournaments:live", args=[tournament.pk])
    assert f'hx-get="{live}"' in frame and 'hx-target="#tournament-live"' in frame
    frame = await banner.receive_from(timeout=TIMEOUT)
    url = reverse("tournaments:banner", args=[tournament.pk])
    assert f'hx-get="{url}?match={match.pk}"' in frame and 'hx-target="#tournament-banner"' in frame
    assert "Bot" not in frame  # names, points and cards never cross the socket
    await page.disconnect()
    await banner.disconnect()


async def test_a_player_joining_mid_way_refreshes_every_page() -> None:
    tournament, _organiser, _match = await sync_to_async(started_arena)()
    page = await connect(f"/ws/tournament/{tournament.pk}/?v={tournament.version}", AnonymousUser())
    anna = await sync_to_async(make_user)("anna")
    await sync_to_async(services.entry_register)(tournament_id=tournament.pk, user=anna)
    frame = await page.receive_from(timeout=TIMEOUT)
    assert f'data-version="{tournament.version + 1}"' in frame
    await sync_to_async(services.arena_pause)(tournament_id=tournament.pk, user=anna)
    frame = await page.receive_from(timeout=TIMEOUT)
    assert f'data-version="{tournament.version + 2}"' in frame
    await page.disconnect()


async def test_a_banner_behind_the_current_version_catches_up_on_connect() -> None:
    tournament, _organiser, match = await sync_to_async(started_arena)()
    banner = await connect(f"/ws/tournament/{tournament.pk}/?v=0&match={match.pk}", AnonymousUser())
    frame = await banner.receive_from(timeout=TIMEOUT)
    assert f"?match={match.pk}" in frame
    await banner.disconnect()


async def test_a_match_that_is_not_a_number_asks_for_the_live_part() -> None:
    tournament, _organiser, _match = await sync_to_async(started_arena)()
    socket = await connect(f"/ws/tournament/{tournament.pk}/?v=0&match=%C2%B2", AnonymousUser())
    frame = await socket.receive_from(timeout=TIMEOUT)
    assert 'hx-target="#tournament-live"' in frame
    assert frame == refresh_fragment(tournament.pk, tournament.version)
    await socket.disconnect()
