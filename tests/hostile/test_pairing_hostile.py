"""Hostile input on pairing: the authorisation matrix of its views (a challenge is for its two
players; only its challenged player accepts or declines it, only its challenger withdraws it;
a seek is its owner's), garbage posted to every pairing form, and frames of every shape sent to
the grid socket and to the personal socket: never a 500, never a crash, nothing changes.

=========================  =====  ==========  ==========  ========
route                      anon   challenger  challenged  stranger
=========================  =====  ==========  ==========  ========
challenge page             ✗      ✓           ✓           ✗
accept / decline           ✗      ✗           ✓           ✗
withdraw                   ✗      ✓           ✗           ✗
fill my seek with bots     ✗      only the seek's owner
=========================  =====  ==========  ==========  ========

(The sweep of every URL for every role, in ``test_authorisation``, covers pairing's routes too.)
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Match
from pairing import challenges, services
from pairing.models import Challenge, Seek
from pairing.routing import websocket_urlpatterns as pairing_routes
from pairing.setups import GRID
from people.routing import websocket_urlpatterns as people_routes
from tests.play.services_support import make_user

from .test_socket_fuzz import MALFORMED

DUEL = GRID[0]
ROLES = ("anonymous", "challenger", "challenged", "stranger")


def client_of(users: dict[str, User | None], role: str) -> Client:
    client = Client(raise_request_exception=False)
    user = users[role]
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, User | None], Challenge]:
    monkeypatch.setattr("pairing.push.to_user", lambda *a, **k: None)
    users: dict[str, User | None] = {
        "anonymous": None,
        "challenger": make_user("olga"),
        "challenged": make_user("petr"),
        "stranger": make_user("sam"),
    }
    challenger, challenged = users["challenger"], users["challenged"]
    assert challenger is not None and challenged is not None
    return users, challenges.challenge_send(challenger=challenger, challenged=challenged, setup=DUEL)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_a_challenge_is_seen_and_answered_only_by_the_right_player(
    world: tuple[dict[str, User | None], Challenge], role: str
) -> None:
    users, challenge = world
    client = client_of(users, role)
    page = client.get(f"/pair/challenges/{challenge.pk}/")
    assert page.status_code == (
        200 if role in ("challenger", "challenged") else 302 if role == "anonymous" else 404
    )
    for answer, allowed in (("cancel", "challenger"), ("decline", "challenged"), ("bogus", None)):
        response = client.post(f"/pair/challenges/{challenge.pk}/{answer}/")
        assert response.status_code < 500
        challenge.refresh_from_db()
        if role == allowed:
            assert challenge.status != Challenge.Status.PENDING
            return
        assert challenge.status == Challenge.Status.PENDING
    response = client.post(f"/pair/challenges/{challenge.pk}/accept/")
    challenge.refresh_from_db()
    assert (challenge.status == Challenge.Status.ACCEPTED) == (role == "challenged")


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_only_the_owner_fills_a_seek_with_bots(
    world: tuple[dict[str, User | None], Challenge], role: str
) -> None:
    users, _challenge = world
    owner = users["challenger"]
    assert owner is not None
    seek = services.seek_open(user=owner, setup=GRID[5])
    Seek.objects.update(created=timezone.now() - timedelta(minutes=5))
    response = client_of(users, role).post(f"/pair/seek/{seek.pk}/bots/", {"level": "easy"})
    assert response.status_code < 500
    assert Match.objects.exists() == (role == "challenger")


GARBAGE = [
    {"variant": ["a", "b"], "players": "²", "deck": "1e9", "turn_seconds": "nan", "rating_range": "\x00"},
    {"variant": "podkidnoy", "players": "2", "deck": "36", "turn_seconds": "30", "rating_range": "9" * 50},
    {"level": "\x00", "next": "https://evil.example/"},
    {"level": "strong" * 1000, "rated": "on", "teams": "on"},
]


@pytest.mark.django_db
@pytest.mark.parametrize("data", GARBAGE)
def test_garbage_posted_to_every_pairing_form_is_never_a_500_nor_an_open_redirect(
    world: tuple[dict[str, User | None], Challenge], data: dict[str, object]
) -> None:
    users, challenge = world
    petr = users["challenged"]
    assert petr is not None
    client = client_of(users, "stranger")
    for path in (
        "/pair/seek/",
        "/pair/new/",
        "/pair/seek/cancel/",
        "/pair/seek/999999/bots/",
        f"/pair/challenge/{petr.pk}/",
        "/pair/challenge/999999/",
        f"/pair/challenges/{challenge.pk}/accept/",
        "/pair/again/999999/bots/",
        "/pair/alerts/",
    ):
        response = client.post(path, data)
        assert response.status_code < 500, path
        assert "evil.example" not in response.get("Location", ""), path
    assert not Seek.objects.exists() and not Match.objects.exists()
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.PENDING


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/ws/pairing/", "/ws/me/"])
async def test_any_frame_on_the_grid_and_personal_sockets_is_ignored(path: str) -> None:
    olga = await sync_to_async(make_user)("olga")
    for user in (olga, AnonymousUser()):
        communicator = WebsocketCommunicator(URLRouter(pairing_routes + people_routes), path)
        communicator.scope["user"] = user
        connected, _code = await communicator.connect(timeout=5)
        if not connected:
            assert path == "/ws/me/" and isinstance(user, AnonymousUser)
            continue
        if path == "/ws/pairing/":
            await communicator.receive_from(timeout=5)  # the grid as it is
        for frame in [f for f in MALFORMED if f] + [json.dumps({"type": "grid.changed"}), "x" * 100_000]:
            await communicator.send_to(text_data=frame)
        await communicator.send_to(bytes_data=b"\x00" * 1000)
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()
    assert not await sync_to_async(Seek.objects.exists)()
