"""The match and lobby websockets (``play.consumers``) driven by ``WebsocketCommunicator``.

Who connects: the two players of a match, a spectator (logged in, not seated), a stranger to a
private table and an anonymous visitor. Every socket first gets the full view; a move reaches
every socket; the wrong seat's action, a stale version and a malformed frame are refused with an
error frame to the sender alone, and change nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from unittest import mock

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from accounts.models import User
from durak_site.asgi import application
from games.engine import Rules, card_str
from games.models import Match
from play import broadcast, services
from play.routing import websocket_urlpatterns

from .services_support import make_user, start_match, state_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TIMEOUT = 5


@pytest.fixture(autouse=True)
def seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "consumer-seed")


@dataclass
class Table:
    match: Match
    alice: User
    bob: User


@sync_to_async
def two_player_match(*, private: bool = False) -> Table:
    alice, bob = make_user("alice"), make_user("bob")
    if private:
        table = services.table_create(creator=alice, rules=Rules(), private=True)
        services.table_join(table_id=table.pk, user=bob, invite_token=table.invite_token)
        match = Match.objects.get(table=table)
    else:
        match = start_match(humans=[alice, bob])
    return Table(match, alice, bob)


async def connect(match_id: int, user: User | AnonymousUser) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{match_id}/")
    communicator.scope["user"] = user
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    return communicator


async def frames_until(communicator: WebsocketCommunicator, needle: str) -> str:
    """Receive frames until one contains ``needle`` (pushes of bot moves may come first)."""
    while True:
        frame: str = await communicator.receive_from(timeout=TIMEOUT)
        if needle in frame:
            return frame


async def nothing_else_came(match_id: int, *communicators: WebsocketCommunicator) -> bool:
    """Whether the next frame each of ``communicators`` gets answers a malformed frame handed to
    every socket of the match through the channel layer now: a socket handles what reaches its
    channel in order, so anything already on its way to it (a push, an error) would come first.
    The stand-in, with no time window, for ``receive_nothing`` (every socket of the match
    answers the probe; pass all of them to leave nothing unread)."""
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(broadcast.match_group(match_id), {"type": "websocket.receive", "text": "not json"})
    frames = [await communicator.receive_from(timeout=TIMEOUT) for communicator in communicators]
    return all('data-code="malformed"' in frame and 'id="match-hand"' not in frame for frame in frames)


@pytest_asyncio.fixture
async def sockets() -> AsyncIterator[list[WebsocketCommunicator]]:
    opened: list[WebsocketCommunicator] = []
    yield opened
    for communicator in opened:
        await communicator.disconnect()


async def test_each_viewer_first_gets_the_full_view_of_its_own(
    sockets: list[WebsocketCommunicator],
) -> None:
    table = await two_player_match()
    state = await sync_to_async(state_of)(table.match)
    spectator = await sync_to_async(make_user)("carol")
    viewers: list[User | AnonymousUser] = [table.alice, table.bob, spectator, AnonymousUser()]
    for viewer in viewers:
        sockets.append(await connect(table.match.pk, viewer))
    frames = [await s.receive_from(timeout=TIMEOUT) for s in sockets]
    for frame in frames:
        for part in ("match-players", "match-table", "match-status", "match-hand", "match-log"):
            assert f'id="{part}"' in frame
    for seat, frame in enumerate(frames[:2]):
        other = state.view(1 - seat).hand
        assert all(f'data-card="{code}"' in frame for code in state.view(seat).hand)
        assert not any(f'data-card="{code}"' in frame for code in other)
    for frame in frames[2:]:
        assert "data-card=" not in frame and "You are watching" in frame


async def test_a_move_reaches_every_socket(sockets: list[WebsocketCommunicator]) -> None:
    table = await two_player_match()
    state = await sync_to_async(state_of)(table.match)
    seat = min(state.awaiting())
    action = state.default_action(seat)
    spectator = await sync_to_async(make_user)("carol")
    for viewer in (table.alice, table.bob, spectator, AnonymousUser()):
        sockets.append(await connect(table.match.pk, viewer))
    for communicator in sockets:
        await communicator.receive_from(timeout=TIMEOUT)
    mover_socket = sockets[seat]
    await mover_socket.send_to(text_data=json.dumps({"action": str(action), "version": 0}))
    played = action.cards[0]
    for communicator in sockets:
        frame = await frames_until(communicator, 'data-version="1"')
        assert "hx-swap-oob" in frame
        assert card_str(played) in frame  # the attack card lies on the table for everyone
    match = await Match.objects.aget(pk=table.match.pk)
    assert match.version == 1


async def test_each_move_reaches_each_seat_once_with_its_log_line_once(
    sockets: list[WebsocketCommunicator],
) -> None:
    """The mover's page is drawn from the move's own rows (no wait for the broadcast), and the
    broadcast of that version then finds it there: one frame per move per socket, the new log
    line in it once, versions only ever going up."""
    table = await two_player_match()
    for viewer in (table.alice, table.bob):
        sockets.append(await connect(table.match.pk, viewer))
    for communicator in sockets:
        await communicator.receive_from(timeout=TIMEOUT)
    for version in range(4):
        state = await sync_to_async(state_of)(table.match)
        seat = min(state.awaiting())
        frame = {"action": str(state.default_action(seat)), "version": version}
        await sockets[seat].send_to(text_data=json.dumps(frame))
        lines = []
        for communicator in sockets:
            pushed = await communicator.receive_from(timeout=TIMEOUT)
            assert f'data-version="{version + 1}"' in pushed
            lines.append(re.findall(r'data-seq="(\d+)"', pushed))
        assert lines[0] and lines[0] == lines[1] and set(lines[0]) == {str(version + 1)}
        assert await nothing_else_came(table.match.pk, *sockets)


async def test_the_wrong_seats_action_is_refused_to_the_sender_alone(
    sockets: list[WebsocketCommunicator],
) -> None:
    table = await two_player_match()
    state = await sync_to_async(state_of)(table.match)
    waiting = 1 - min(state.awaiting())  # the seat that may not lead now
    wrong, right = (table.alice, table.bob) if waiting == 0 else (table.bob, table.alice)
    wrong_socket = await connect(table.match.pk, wrong)
    right_socket = await connect(table.match.pk, right)
    sockets.extend([wrong_socket, right_socket])
    await wrong_socket.receive_from(timeout=TIMEOUT)
    await right_socket.receive_from(timeout=TIMEOUT)
    lead = str(state.legal_actions(min(state.awaiting()))[0])
    await wrong_socket.send_to(text_data=json.dumps({"action": lead, "version": 0}))
    frame = await wrong_socket.receive_from(timeout=TIMEOUT)
    assert 'id="match-error"' in frame and "not allowed" in frame
    assert await nothing_else_came(table.match.pk, right_socket, wrong_socket)
    match = await Match.objects.aget(pk=table.match.pk)
    assert match.version == 0


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[1, 2]",
        json.dumps({"action": "take"}),
        json.dumps({"action": 7, "version": 0}),
        json.dumps({"action": "take", "version": -1}),
        json.dumps({"action": "", "version": 0}),
        json.dumps({"action": "take", "version": "²"}),  # a digit to str.isdigit, not to int
        "[" * 100_000,  # nested deep enough to exhaust the JSON parser's recursion
    ],
    ids=["text", "list", "no-version", "action-not-text", "negative", "empty", "sup2", "nested"],
)
async def test_a_malformed_frame_gets_an_error_frame(
    frame: str, sockets: list[WebsocketCommunicator]
) -> None:
    table = await two_player_match()
    socket = await connect(table.match.pk, table.alice)
    sockets.append(socket)
    await socket.receive_from(timeout=TIMEOUT)
    await socket.send_to(text_data=frame)
    reply = await socket.receive_from(timeout=TIMEOUT)
    assert 'id="match-error"' in reply and 'data-code="malformed"' in reply
    match = await Match.objects.aget(pk=table.match.pk)
    assert match.version == 0


async def test_a_stale_version_resends_the_view_with_the_error(
    sockets: list[WebsocketCommunicator],
) -> None:
    table = await two_player_match()
    state = await sync_to_async(state_of)(table.match)
    seat = min(state.awaiting())
    socket = await connect(table.match.pk, table.alice if seat == 0 else table.bob)
    sockets.append(socket)
    await socket.receive_from(timeout=TIMEOUT)
    action = str(state.default_action(seat))
    await socket.send_to(text_data=json.dumps({"action": action, "version": 3}))
    reply = await socket.receive_from(timeout=TIMEOUT)
    assert "changed in the meantime" in reply and 'id="match-hand"' in reply


async def test_spectators_and_anonymous_visitors_cannot_act(
    sockets: list[WebsocketCommunicator],
) -> None:
    table = await two_player_match()
    spectator = await sync_to_async(make_user)("carol")
    for viewer, needle in ((spectator, "do not play"), (AnonymousUser(), "Log in")):
        socket = await connect(table.match.pk, viewer)
        sockets.append(socket)
        await socket.receive_from(timeout=TIMEOUT)
        await socket.send_to(text_data=json.dumps({"action": "take", "version": 0}))
        reply = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="match-error"' in reply and needle in reply
    match = await Match.objects.aget(pk=table.match.pk)
    assert match.version == 0


async def test_a_stranger_cannot_watch_a_private_table() -> None:
    table = await two_player_match(private=True)
    stranger = await sync_to_async(make_user)("mallory")
    for viewer in (stranger, AnonymousUser()):
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{table.match.pk}/")
        communicator.scope["user"] = viewer
        connected, code = await communicator.connect(timeout=TIMEOUT)
        assert not connected and code == 4403
    insider = await connect(table.match.pk, table.bob)
    assert 'id="match-hand"' in await insider.receive_from(timeout=TIMEOUT)
    await insider.disconnect()


async def test_anyone_may_watch_a_tournaments_table_as_a_spectator() -> None:
    """A tournament's table (``managed``) is private for its seats only (``Table.open_to_watch``):
    a stranger's and an anonymous visitor's sockets connect and get the spectator's view."""

    @sync_to_async
    def tournament_like_match() -> Match:
        alice, bob = make_user("alice"), make_user("bob")
        table = services.table_create(
            creator=alice, rules=Rules(), private=True, organised=True, managed=True
        )
        services.table_join(table_id=table.pk, user=bob, invite_token=table.invite_token)
        return Match.objects.get(table=table)

    match = await tournament_like_match()
    stranger = await sync_to_async(make_user)("mallory")
    for viewer in (stranger, AnonymousUser()):
        communicator = await connect(match.pk, viewer)
        frame = await communicator.receive_from(timeout=TIMEOUT)
        assert 'id="match-table"' in frame and 'class="hand__card' not in frame
        await communicator.disconnect()


async def test_an_unknown_match_is_closed() -> None:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/match/999999/")
    communicator.scope["user"] = AnonymousUser()
    connected, code = await communicator.connect(timeout=TIMEOUT)
    assert not connected and code == 4404


async def test_the_site_stack_knows_the_player_by_the_session_cookie() -> None:
    """Through the real ASGI app: origin check and session auth, as a browser connects; the
    session's player sees their hand and plays through the socket."""
    table = await two_player_match()
    state = await sync_to_async(state_of)(table.match)
    seat = min(state.awaiting())
    client = Client()
    await sync_to_async(client.force_login)(table.alice if seat == 0 else table.bob)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    communicator = WebsocketCommunicator(
        application,
        f"/ws/match/{table.match.pk}/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)],
    )
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    frame = await communicator.receive_from(timeout=TIMEOUT)
    assert all(f'data-card="{code}"' in frame for code in state.view(seat).hand)
    action = str(state.default_action(seat))
    await communicator.send_to(text_data=json.dumps({"action": action, "version": "0"}))
    await frames_until(communicator, 'data-version="1"')
    match = await Match.objects.aget(pk=table.match.pk)
    assert match.version == 1
    await communicator.disconnect()


async def test_a_socket_from_another_site_is_refused() -> None:
    table = await two_player_match()
    communicator = WebsocketCommunicator(
        application,
        f"/ws/match/{table.match.pk}/",
        headers=[(b"origin", b"http://evil.example"), (b"host", b"testserver")],
    )
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert not connected


async def test_the_lobby_socket_pushes_the_open_tables() -> None:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    communicator.scope["user"] = AnonymousUser()
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    first = await communicator.receive_from(timeout=TIMEOUT)
    assert 'id="lobby-tables"' in first
    host = await sync_to_async(make_user)("host")
    table = await sync_to_async(services.table_create)(creator=host, rules=Rules(players=3))
    frame = await frames_until(communicator, f'data-table="{table.pk}"')
    assert "hx-swap-oob" in frame
    await communicator.disconnect()


async def test_the_table_socket_leads_seated_players_to_the_dealt_match() -> None:
    host, guest = await sync_to_async(make_user)("host"), await sync_to_async(make_user)("guest")
    table = await sync_to_async(services.table_create)(creator=host, rules=Rules())
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{table.pk}/")
    communicator.scope["user"] = host
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    await sync_to_async(services.table_join)(table_id=table.pk, user=guest)
    match = await Match.objects.aget(table=table)
    frame = await frames_until(communicator, "data-redirect")
    assert f'data-redirect="/play/match/{match.pk}/"' in frame
    await communicator.disconnect()


async def test_play_again_sends_both_players_to_the_next_match(
    sockets: list[WebsocketCommunicator],
) -> None:
    table = await two_player_match()
    await sync_to_async(services.match_abort)(match_id=table.match.pk, user=table.alice)
    for viewer in (table.alice, table.bob):
        sockets.append(await connect(table.match.pk, viewer))
    for communicator in sockets:
        assert 'id="match-status"' in await communicator.receive_from(timeout=TIMEOUT)
    await sync_to_async(services.play_again)(match_id=table.match.pk, user=table.alice)
    await sync_to_async(services.play_again)(match_id=table.match.pk, user=table.bob)
    newer = await Match.objects.filter(table_id=table.match.table_id).order_by("-number").afirst()
    assert newer is not None and newer.pk != table.match.pk
    for communicator in sockets:
        frame = await frames_until(communicator, "data-redirect")
        assert f'data-redirect="/play/match/{newer.pk}/"' in frame


async def test_a_private_tables_socket_needs_a_seat_or_the_invite() -> None:
    host, stranger = await sync_to_async(make_user)("host"), await sync_to_async(make_user)("x")
    table = await sync_to_async(services.table_create)(creator=host, rules=Rules(), private=True)
    base = f"/ws/table/{table.pk}/"
    for user, path, allowed in (
        (stranger, base, False),
        (AnonymousUser(), base, False),
        (stranger, f"{base}?invite={table.invite_token}", True),
        (host, base, True),
    ):
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
        communicator.scope["user"] = user
        connected, _code = await communicator.connect(timeout=TIMEOUT)
        assert connected is allowed
        if connected:
            await communicator.disconnect()


async def test_handlers_skip_the_per_message_connection_cleanup(
    monkeypatch: pytest.MonkeyPatch, sockets: list[WebsocketCommunicator]
) -> None:
    """``ViewerDispatch`` relies on channels' ``get_handler_name`` and replaces the dispatch
    that awaits ``aclose_old_connections``; if channels changes either, this fails."""
    import channels.consumer

    calls: list[None] = []

    async def counting() -> None:
        calls.append(None)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counting)
    table = await two_player_match()
    socket = await connect(table.match.pk, table.alice)
    sockets.append(socket)
    await socket.receive_from(timeout=TIMEOUT)
    await socket.send_to(text_data="not json")
    assert 'data-code="malformed"' in await socket.receive_from(timeout=TIMEOUT)
    assert calls == []
    assert channels.consumer.get_handler_name({"type": "match.changed"}) == "match_changed"


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([(b"cookie", b"django_language=ru")], "Ходы"),
        ([(b"accept-language", b"ru-RU,ru;q=0.9,en;q=0.5")], "Ходы"),
        ([(b"cookie", b"django_language=en"), (b"accept-language", b"ru")], "Moves"),
        ([], "Moves"),
    ],
    ids=["cookie", "accept-language", "cookie-wins", "default"],
)
async def test_the_socket_speaks_the_pages_language(
    headers: list[tuple[bytes, bytes]], expected: str, sockets: list[WebsocketCommunicator]
) -> None:
    """Pushed fragments and error messages use the language the page was rendered in."""
    table = await two_player_match()
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/match/{table.match.pk}/", headers=headers
    )
    communicator.scope["user"] = AnonymousUser()
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    sockets.append(communicator)
    assert expected in await communicator.receive_from(timeout=TIMEOUT)
    await communicator.send_to(text_data=json.dumps({"action": "take", "version": 0}))
    reply = await communicator.receive_from(timeout=TIMEOUT)
    assert ("Log in to play" in reply) is (expected == "Moves")


async def test_a_reconnecting_socket_heals_a_peer_that_missed_a_broadcast(
    sockets: list[WebsocketCommunicator],
) -> None:
    """A daphne that dies between a move's commit and its broadcast takes the event with it: the
    mover's page reconnects, and its connect brings the other seats up to date."""
    table = await two_player_match()
    state = await sync_to_async(state_of)(table.match)
    seat = min(state.awaiting())
    mover, other = (table.alice, table.bob) if seat == 0 else (table.bob, table.alice)
    sockets.append(await connect(table.match.pk, other))
    await sockets[0].receive_from(timeout=TIMEOUT)

    def move_without_broadcast() -> None:
        with mock.patch("durak_site.broadcast.get_channel_layer", return_value=None):
            services.action_apply(
                match_id=table.match.pk,
                user=mover,
                action_text=str(state.default_action(seat)),
                expected_version=0,
            )

    await sync_to_async(move_without_broadcast)()
    assert await nothing_else_came(table.match.pk, sockets[0])
    sockets.append(await connect(table.match.pk, mover))
    await frames_until(sockets[1], 'data-version="1"')
    await frames_until(sockets[0], 'data-version="1"')


async def test_a_table_socket_first_sends_the_seats_with_the_way_to_a_dealt_match(
    sockets: list[WebsocketCommunicator],
) -> None:
    """A table that filled before its page's socket joined the group still leads to the match."""
    table = await two_player_match()
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/table/{table.match.table_id}/"
    )
    communicator.scope["user"] = table.alice
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    sockets.append(communicator)
    frame = await communicator.receive_from(timeout=TIMEOUT)
    assert f'data-redirect="{reverse("games:match", args=[table.match.pk])}"' in frame
