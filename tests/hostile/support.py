"""Shared pieces of the hostile-input tests: a two-player match with a spectator, sockets on it,
and a fingerprint of everything a refused request must leave unchanged."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.models import Match, Move
from play.routing import websocket_urlpatterns
from tests.play.services_support import make_user, start_match

TIMEOUT = 5


@dataclass
class World:
    """A dealt two-player match at a public table, its players and an unseated spectator."""

    match: Match
    alice: User
    bob: User
    carol: User

    def player(self, seat: int) -> User:
        return self.alice if seat == 0 else self.bob


def make_world(*, private: bool = False) -> World:
    from games.engine import Rules
    from play import services

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    if private:
        table = services.table_create(creator=alice, rules=Rules(), private=True)
        services.table_join(table_id=table.pk, user=bob, invite_token=table.invite_token)
        match = Match.objects.get(table=table)
    else:
        match = start_match(humans=[alice, bob])
    return World(match, alice, bob, carol)


def fingerprint(match_id: int) -> tuple[Any, ...]:
    """What must not move when a request is refused: version, status, snapshot and the log."""
    match = Match.objects.get(pk=match_id)
    moves = list(Move.objects.filter(match_id=match_id).values_list("seq", "seat", "action"))
    return (match.version, match.status, json.dumps(match.snapshot, sort_keys=True), moves)


async def connect(match_id: int, user: User | AnonymousUser, *, router: Any = None) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(router or URLRouter(websocket_urlpatterns), f"/ws/match/{match_id}/")
    communicator.scope["user"] = user
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    await communicator.receive_from(timeout=TIMEOUT)  # the full view
    return communicator


def error_of(frame: str) -> str:
    """The error line's text in a frame ('' when the frame carries none)."""
    import re

    found = re.search(r'id="match-error"[^>]*>([^<]*)</p>', frame)
    return found.group(1).strip() if found else ""
