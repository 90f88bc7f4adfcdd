"""The table chat socket (``play.chat.consumers``) driven by ``WebsocketCommunicator``.

Alice and Bob play; Carol and Dave watch. What one room says never reaches the other; a muted
user is told until when; a blocked author's lines never reach the one who blocked; the per-user
limit holds over several sockets; tournament games take quick phrases only; free text needs the
setting and comes out escaped; bad frames are answered and change nothing.

"Nothing arrived" is proved without a time window: a socket handles what reaches its channel in
order, so the next frame a reader gets after a line it must not see is a later one it must.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.utils import timezone

from accounts.models import User
from games.models import Match
from people import services as people_services
from people.models import Sanction
from play.chat import selectors as chat_selectors
from play.chat import services as chat_services
from play.chat.routing import websocket_urlpatterns
from play.models import ChatLine, ChatReport
from tests.play.services_support import make_user, start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TIMEOUT = 5


@dataclass
class Room:
    match: Match
    alice: User
    bob: User
    carol: User
    dave: User


@pytest.fixture(autouse=True)
def fresh_limits() -> None:
    cache.clear()


@sync_to_async
def a_match() -> Room:
    alice, bob, carol, dave = (make_user(name) for name in ("alice", "bob", "carol", "dave"))
    return Room(start_match(humans=[alice, bob]), alice, bob, carol, dave)


@pytest_asyncio.fixture
async def sockets() -> AsyncIterator[list[WebsocketCommunicator]]:
    opened: list[WebsocketCommunicator] = []
    yield opened
    for communicator in opened:
        await communicator.disconnect()


async def join(
    sockets: list[WebsocketCommunicator], match_id: int, user: User | AnonymousUser, language: str = "en"
) -> WebsocketCommunicator:
    """A chat socket of ``user``, its first frame (the room's panel) read."""
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/chat/{match_id}/")
    communicator.scope["user"] = user
    communicator.scope["headers"] = [(b"cookie", f"django_language={language}".encode())]
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    assert connected
    sockets.append(communicator)
    panel = await communicator.receive_from(timeout=TIMEOUT)
    assert 'id="chat-panel"' in panel
    return communicator


async def say(communicator: WebsocketCommunicator, **frame: str) -> None:
    await communicator.send_to(text_data=json.dumps({**frame, "HEADERS": {"HX-Request": "true"}}))


async def next_line(communicator: WebsocketCommunicator) -> str:
    """The next frame that appends a line (the sender's own notice frames are skipped)."""
    while True:
        frame: str = await communicator.receive_from(timeout=TIMEOUT)
        if 'id="chat-lines"' in frame:
            return frame


async def next_notice(communicator: WebsocketCommunicator) -> str:
    """The next notice that is not the blank one a line said is answered with."""
    while True:
        frame: str = await communicator.receive_from(timeout=TIMEOUT)
        if 'id="chat-notice"' in frame and 'data-code="said"' not in frame:
            return frame


async def said(communicator: WebsocketCommunicator) -> None:
    """Wait for the answer to a line said."""
    while True:
        frame: str = await communicator.receive_from(timeout=TIMEOUT)
        if 'id="chat-notice"' in frame:
            assert 'data-code="said"' in frame, frame
            return


async def test_players_and_spectators_chat_in_separate_rooms(sockets: list[WebsocketCommunicator]) -> None:
    room = await a_match()
    alice, bob = await join(sockets, room.match.pk, room.alice), await join(sockets, room.match.pk, room.bob)
    carol, dave = (
        await join(sockets, room.match.pk, room.carol),
        await join(sockets, room.match.pk, room.dave),
    )
    await say(alice, phrase="gl")
    assert "Good luck!" in await next_line(bob)
    assert "Good luck!" in await next_line(alice)
    await say(carol, phrase="hello")
    dave_sees = await next_line(dave)
    assert "Hello!" in dave_sees and "Good luck!" not in dave_sees  # the players' line never came
    await say(bob, phrase="thinking")
    bob_line = await next_line(alice)
    assert "Thinking…" in bob_line and "Hello!" not in bob_line  # nor the spectators' to the players
    rooms = await sync_to_async(lambda: sorted(ChatLine.objects.values_list("room", "phrase")))()
    assert rooms == [("players", "gl"), ("players", "thinking"), ("spectators", "hello")]


async def test_a_quick_phrase_is_stored_as_a_code_and_read_in_each_readers_language(
    sockets: list[WebsocketCommunicator],
) -> None:
    room = await a_match()
    alice = await join(sockets, room.match.pk, room.alice, "en")
    bob = await join(sockets, room.match.pk, room.bob, "ru")
    await say(alice, phrase="wp")
    assert "Хорошо сыграно!" in await next_line(bob)
    assert "Well played!" in await next_line(alice)
    assert await ChatLine.objects.filter(phrase="wp", text="").aexists()


async def test_a_muted_player_is_told_until_when_and_says_nothing(
    sockets: list[WebsocketCommunicator],
) -> None:
    room = await a_match()
    await sync_to_async(people_services.sanction_impose)(
        user_id=room.alice.pk, kind=Sanction.Kind.MUTE, until=timezone.now() + timedelta(hours=2)
    )
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/chat/{room.match.pk}/")
    communicator.scope["user"] = room.alice
    await communicator.connect(timeout=TIMEOUT)
    sockets.append(communicator)
    panel = await communicator.receive_from(timeout=TIMEOUT)
    assert "You are muted in chat until" in panel and "chat__quick-button" not in panel
    await say(communicator, phrase="gl")
    assert "You are muted in chat until" in await next_notice(communicator)
    assert not await ChatLine.objects.aexists()


async def test_the_lines_of_a_blocked_player_never_reach_the_blocker(
    sockets: list[WebsocketCommunicator],
) -> None:
    room = await a_match()
    await sync_to_async(people_services.block)(room.bob, room.alice)
    alice, bob = await join(sockets, room.match.pk, room.alice), await join(sockets, room.match.pk, room.bob)
    await say(alice, phrase="oops")
    assert "Oops!" in await next_line(alice)
    await say(bob, phrase="gl")
    assert "Good luck!" in await next_line(bob)  # Alice's line never came before Bob's own
    await say(alice, phrase="nice")
    assert "Nice move!" in await next_line(alice)  # nor Bob's to Alice


async def test_a_block_made_while_the_sockets_are_open_hides_the_next_lines(
    sockets: list[WebsocketCommunicator],
) -> None:
    room = await a_match()
    alice, bob = await join(sockets, room.match.pk, room.alice), await join(sockets, room.match.pk, room.bob)
    await sync_to_async(people_services.block)(room.bob, room.alice)
    await say(alice, phrase="oops")
    await say(bob, phrase="gl")
    assert "Good luck!" in await next_line(bob)


async def test_the_limit_counts_a_users_lines_over_all_their_sockets(
    sockets: list[WebsocketCommunicator], settings: object
) -> None:
    room = await a_match()
    settings.CHAT_USER_RATE = (3, 3600)  # type: ignore[attr-defined]
    first, second = (
        await join(sockets, room.match.pk, room.alice),
        await join(sockets, room.match.pk, room.alice),
    )
    for phrase in ("hello", "gl"):
        await say(first, phrase=phrase)
        await said(first)
    await say(second, phrase="thinking")
    await said(second)
    await say(second, phrase="oops")
    assert "too fast" in await next_notice(second)
    await say(first, phrase="oops")
    assert "too fast" in await next_notice(first)
    assert await ChatLine.objects.acount() == 3


async def test_free_text_needs_the_setting_and_is_escaped(sockets: list[WebsocketCommunicator]) -> None:
    room = await a_match()
    alice, bob = await join(sockets, room.match.pk, room.alice), await join(sockets, room.match.pk, room.bob)
    await say(alice, text="<b>hi</b>")
    assert "Turn free text on" in await next_notice(alice)
    await User.objects.filter(pk__in=[room.alice.pk, room.bob.pk]).aupdate(chat_free_text=True)
    room.alice.chat_free_text = room.bob.chat_free_text = True
    sockets.clear()
    alice, bob = await join(sockets, room.match.pk, room.alice), await join(sockets, room.match.pk, room.bob)
    await say(alice, text="  <b>hi</b>\u200b  there ")
    line = await next_line(bob)
    assert "&lt;b&gt;hi&lt;/b&gt; there" in line and "<b>" not in line
    await say(alice, text="x" * 201)
    assert "at most 200" in await next_notice(alice)
    assert await sync_to_async(lambda: list(ChatLine.objects.values_list("text", flat=True)))() == [
        "<b>hi</b> there"
    ]


async def test_a_reader_who_keeps_free_text_off_sees_only_quick_phrases(
    sockets: list[WebsocketCommunicator],
) -> None:
    room = await a_match()
    await User.objects.filter(pk=room.alice.pk).aupdate(chat_free_text=True)
    room.alice.chat_free_text = True
    alice, bob = await join(sockets, room.match.pk, room.alice), await join(sockets, room.match.pk, room.bob)
    await say(alice, text="hello there")
    await say(alice, phrase="gl")
    line = await next_line(bob)
    assert "Good luck!" in line and "hello there" not in line


async def test_tournament_games_take_quick_phrases_only(
    sockets: list[WebsocketCommunicator], monkeypatch: pytest.MonkeyPatch
) -> None:
    room = await a_match()
    await User.objects.filter(pk=room.alice.pk).aupdate(chat_free_text=True)
    room.alice.chat_free_text = True
    monkeypatch.setattr("play.chat.selectors.is_tournament_table", lambda table: True)
    alice = await join(sockets, room.match.pk, room.alice)
    await say(alice, text="hello there")
    assert "Only quick phrases" in await next_notice(alice)
    await say(alice, phrase="gl")
    assert "Good luck!" in await next_line(alice)
    assert await ChatLine.objects.filter(text="").acount() == await ChatLine.objects.acount() == 1


async def test_a_report_goes_to_the_queue_once_and_only_for_a_line_the_reporter_can_read(
    sockets: list[WebsocketCommunicator],
) -> None:
    room = await a_match()
    alice, bob = await join(sockets, room.match.pk, room.alice), await join(sockets, room.match.pk, room.bob)
    carol = await join(sockets, room.match.pk, room.carol)
    await say(alice, phrase="oops")
    line = await next_line(bob)
    assert "chat__report" in line
    line_id = (await ChatLine.objects.aget()).pk
    for _twice in range(2):
        await say(bob, report=str(line_id))
        assert "Reported" in await next_notice(bob)
    await say(alice, report=str(line_id))
    assert "your own line" in await next_notice(alice)
    await say(carol, report=str(line_id))  # a spectator cannot read the players' room
    assert "no such line" in await next_notice(carol)
    reports = await sync_to_async(
        lambda: list(ChatReport.objects.values_list("reporter__username", flat=True))
    )()
    assert reports == ["bob"]


async def test_an_anonymous_reader_reads_the_spectators_room_and_says_nothing(
    sockets: list[WebsocketCommunicator],
) -> None:
    room = await a_match()
    carol, anonymous = (
        await join(sockets, room.match.pk, room.carol),
        await join(sockets, room.match.pk, AnonymousUser()),
    )
    await say(carol, phrase="wow")
    assert "😮" in await next_line(anonymous)
    await say(anonymous, phrase="gl")
    assert "Log in to chat" in await next_notice(anonymous)


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[]",
        "null",
        "1",
        '"phrase"',
        "{}",
        '{"phrase": 5}',
        '{"phrase": "nope"}',
        '{"phrase": "gl", "text": "two"}',
        '{"report": "abc"}',
        '{"report": "999999"}',
        '{"report": -1}',
        '{"text": ""}',
        '{"text": "   "}',
        '{"phrase": "' + "x" * 5000 + '"}',
        "[" * 10000,
        '{"text": {"nested": 1}}',
        '{"report": "' + "9" * 30 + '"}',
    ],
)
async def test_a_bad_frame_is_answered_and_changes_nothing(
    sockets: list[WebsocketCommunicator], frame: str
) -> None:
    room = await a_match()
    alice = await join(sockets, room.match.pk, room.alice)
    await alice.send_to(text_data=frame)
    await next_notice(alice)
    await say(alice, phrase="gl")  # still up
    assert "Good luck!" in await next_line(alice)
    assert await ChatLine.objects.acount() == 1 and not await ChatReport.objects.aexists()


async def test_a_socket_to_a_match_that_does_not_exist_or_is_private_is_closed() -> None:
    room = await a_match()
    for match_id in (room.match.pk + 1000,):
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/chat/{match_id}/")
        communicator.scope["user"] = room.alice
        connected, code = await communicator.connect(timeout=TIMEOUT)
        assert not connected and code == 4404


async def test_a_line_said_while_a_socket_opens_reaches_it(
    sockets: list[WebsocketCommunicator], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob says a line just after Alice's opening socket read the room's lines: it was already in
    the room's group, so the line comes after the panel (read first, it never would)."""
    room = await a_match()
    read = chat_selectors.room_lines

    def read_then_a_line(match_id: int, name: str) -> Any:
        lines = list(read(match_id, name))
        chat_services.chat_say(match_id=match_id, user=room.bob, phrase="gl")
        return lines

    monkeypatch.setattr(chat_selectors, "room_lines", read_then_a_line)
    alice = await join(sockets, room.match.pk, room.alice)
    assert "Good luck!" in await next_line(alice)
