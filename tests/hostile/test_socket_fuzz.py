"""Hostile frames on the match socket: never a crash, never a state change, always a clear error.

Covers malformed JSON, wrong types, huge frames, binary frames, actions for another seat, frames
from spectators and anonymous visitors, stale versions, frames naming another match, a random
corpus, and floods (the rate limit of ``play.ratelimit``, which the match socket applies first).
"""

from __future__ import annotations

import json
import random
import string
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import override_settings

from durak_site import buckets, windows
from play import ratelimit
from tests.play.services_support import match_state

from .support import TIMEOUT, World, connect, error_of, fingerprint, make_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MALFORMED = [
    "",
    "not json",
    "{",
    "null",
    "7",
    '"take"',
    "[1, 2]",
    json.dumps({}),
    json.dumps({"action": "take"}),
    json.dumps({"version": 0}),
    json.dumps({"action": None, "version": 0}),
    json.dumps({"action": 7, "version": 0}),
    json.dumps({"action": ["take"], "version": 0}),
    json.dumps({"action": {"kind": "take"}, "version": 0}),
    json.dumps({"action": "take", "version": -1}),
    json.dumps({"action": "take", "version": 1.5}),
    json.dumps({"action": "take", "version": True}),
    json.dumps({"action": "take", "version": "zero"}),
    json.dumps({"action": "take", "version": [0]}),
    json.dumps({"action": "   ", "version": 0}),
    json.dumps({"action": "x" * 201, "version": 0}),
    '{"action": "take", "version": 1e999}',
    '{"action": "take", "version": NaN}',
    "\x00\x01\x02",
]

#: Parsed but refused by the engine or the service: the reply names the reason.
REFUSED = [
    json.dumps({"action": "attack 7Z", "version": 0}),
    json.dumps({"action": "cover AS>", "version": 0}),
    json.dumps({"action": "attack " + "6S " * 60, "version": 0}),
    json.dumps({"action": "launch missiles", "version": 0}),
    json.dumps({"action": "take", "version": 10**30}),
    json.dumps({"action": "take", "version": "99"}),
    json.dumps({"action": "<script>alert(1)</script>", "version": 0}),
    json.dumps({"action": "take", "version": 0, "padding": "p" * 1_000_000}),
]


@pytest.fixture(autouse=True)
def _generous_rate_limit(settings: Any) -> None:
    """The fuzzing tests send dozens of frames a second on purpose: lift the rate limit for them
    (the flood tests below set their own, lower, limits)."""
    settings.GAMES_SOCKET_RATE = (1000.0, 1000)
    settings.GAMES_USER_RATE = (100_000, 60)


class Clock:
    """The rate limiter's clock, held still: a socket's bucket refills and a user's window turns
    only when a test advances it (``durak_site.windows`` and ``durak_site.buckets`` read
    ``time.monotonic`` and ``time.time``; the event loop keeps the real clock)."""

    def __init__(self) -> None:
        # An hour ahead of the real monotonic clock, which stamps a new bucket: it starts full.
        self.now = time.monotonic() + 3600.0

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    held = Clock()
    monkeypatch.setattr(windows, "time", held)  # the users' windows
    monkeypatch.setattr(buckets, "time", held)  # the sockets' token buckets
    return held


@pytest_asyncio.fixture
async def world() -> AsyncIterator[World]:
    yield await sync_to_async(make_world)()


@pytest_asyncio.fixture
async def sockets() -> AsyncIterator[list[WebsocketCommunicator]]:
    opened: list[WebsocketCommunicator] = []
    yield opened
    for communicator in opened:
        try:
            await communicator.disconnect()
        except Exception:
            continue


async def open_socket(sockets: list[WebsocketCommunicator], match_id: int, user: Any, **kw: Any) -> Any:
    communicator = await connect(match_id, user, **kw)
    sockets.append(communicator)
    return communicator


async def mover(world: World) -> tuple[int, Any]:
    state = await sync_to_async(match_state)(world.match)
    seat = min(state.awaiting())
    return seat, state


async def reply_to(socket: WebsocketCommunicator, frame: str | bytes) -> str:
    key = "bytes" if isinstance(frame, bytes) else "text"
    await socket.send_input({"type": "websocket.receive", key: frame})  # empty frames too
    reply = await socket.receive_from(timeout=TIMEOUT)
    assert isinstance(reply, str)
    return reply


async def test_malformed_frames_get_an_error_frame_and_change_nothing(
    world: World, sockets: list[WebsocketCommunicator]
) -> None:
    seat, _state = await mover(world)
    socket = await open_socket(sockets, world.match.pk, world.player(seat))
    before = await sync_to_async(fingerprint)(world.match.pk)
    frames: list[str | bytes] = [*MALFORMED, b"\x81binary\xff", b""]
    for frame in frames:
        reply = await reply_to(socket, frame)
        assert 'data-code="malformed"' in reply, frame[:80]
        assert error_of(reply)
    assert await sync_to_async(fingerprint)(world.match.pk) == before


async def test_parsed_but_impossible_actions_are_refused_with_a_reason(
    world: World, sockets: list[WebsocketCommunicator]
) -> None:
    seat, _state = await mover(world)
    socket = await open_socket(sockets, world.match.pk, world.player(seat))
    before = await sync_to_async(fingerprint)(world.match.pk)
    for frame in REFUSED:
        reply = await reply_to(socket, frame)
        assert error_of(reply), frame[:80]
        assert "<script>" not in reply
    assert await sync_to_async(fingerprint)(world.match.pk) == before


async def test_a_version_of_unicode_digits_is_malformed_not_a_crash(
    world: World, sockets: list[WebsocketCommunicator]
) -> None:
    """'²'.isdigit() is True but int('²') raises: found by this suite, fixed in the consumer."""
    seat, _state = await mover(world)
    socket = await open_socket(sockets, world.match.pk, world.player(seat))
    reply = await reply_to(socket, json.dumps({"action": "take", "version": "²"}))
    assert 'data-code="malformed"' in reply


async def test_deeply_nested_json_is_malformed_not_a_crash(
    world: World, sockets: list[WebsocketCommunicator]
) -> None:
    """json.loads raises RecursionError, not ValueError: found by this suite, fixed."""
    socket = await open_socket(sockets, world.match.pk, world.alice)
    reply = await reply_to(socket, "[" * 100_000 + "]" * 100_000)
    assert 'data-code="malformed"' in reply


async def test_the_other_seat_spectators_and_anonymous_cannot_move(
    world: World, sockets: list[WebsocketCommunicator]
) -> None:
    seat, state = await mover(world)
    legal = [str(action) for action in state.legal_actions(seat)]
    before = await sync_to_async(fingerprint)(world.match.pk)
    for user in (world.player(1 - seat), world.carol, AnonymousUser()):
        socket = await open_socket(sockets, world.match.pk, user)
        for action in [*legal, "take", "pass"]:
            reply = await reply_to(socket, json.dumps({"action": action, "version": 0}))
            assert error_of(reply), (user, action)
    assert await sync_to_async(fingerprint)(world.match.pk) == before


async def test_a_frame_naming_another_match_acts_only_on_the_sockets_own(
    world: World, sockets: list[WebsocketCommunicator]
) -> None:
    """A socket is bound to the match of its URL: keys naming another match are ignored, and a
    player of match A cannot move in match B by sending B's id to A's socket."""
    other = await sync_to_async(make_world_named)("dave", "erin")
    seat, state = await mover(other)
    before = await sync_to_async(fingerprint)(other.match.pk)
    socket = await open_socket(sockets, world.match.pk, world.alice)
    action = str(state.legal_actions(seat)[0])
    frame = {"action": action, "version": 0, "match": other.match.pk, "match_id": other.match.pk}
    await socket.send_to(text_data=json.dumps(frame))
    await socket.receive_from(timeout=TIMEOUT)
    assert await sync_to_async(fingerprint)(other.match.pk) == before


def make_world_named(first: str, second: str) -> World:
    from tests.play.services_support import make_user, start_match

    a, b, c = make_user(first), make_user(second), make_user(first + "-watcher")
    return World(start_match(humans=[a, b]), a, b, c)


async def test_stale_versions_are_refused_and_resend_the_view(
    world: World, sockets: list[WebsocketCommunicator]
) -> None:
    seat, state = await mover(world)
    socket = await open_socket(sockets, world.match.pk, world.player(seat))
    before = await sync_to_async(fingerprint)(world.match.pk)
    action = str(state.default_action(seat))
    for version in (1, 2, 17, 10**6):
        reply = await reply_to(socket, json.dumps({"action": action, "version": version}))
        assert error_of(reply) and 'id="match-status"' in reply
    assert await sync_to_async(fingerprint)(world.match.pk) == before


async def test_a_random_corpus_never_crashes_the_socket(
    world: World, sockets: list[WebsocketCommunicator]
) -> None:
    """Random JSON and random text, seeded: every frame gets an answer with an error line and the
    match stays where it was (the mover's socket, so a lucky legal move would be possible: the
    corpus avoids the exact legal notation)."""
    seat, state = await mover(world)
    legal = {str(action) for action in state.legal_actions(seat)}
    socket = await open_socket(sockets, world.match.pk, world.player(seat))
    before = await sync_to_async(fingerprint)(world.match.pk)
    rng = random.Random(8)
    for _ in range(120):
        frame = random_frame(rng)
        if any(action in frame for action in legal):
            continue
        reply = await reply_to(socket, frame)
        assert error_of(reply), frame[:80]
    assert await sync_to_async(fingerprint)(world.match.pk) == before


def random_frame(rng: random.Random) -> str:
    alphabet = string.printable + "♠♥♦♣²¹½\u202e\u0000"
    words = ["attack", "cover", "take", "pass", "transfer", "show", "beat", "redeal", ">", "6S", "10H", "XJ"]
    choice = rng.randrange(4)
    if choice == 0:
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 300)))
    action: Any = " ".join(rng.choice(words) for _ in range(rng.randrange(0, 6)))
    version: Any = rng.choice([0, -5, 2**63, "0", "", None, 0.0, [], {}, "0x1"])
    if choice == 1:
        action = rng.choice([action, 0, None, [], {"a": 1}, True])
    if choice == 2:
        return json.dumps([action, version])
    return json.dumps({"action": action, "version": version, rng.choice(words): rng.random()})


# --- floods and the rate limit ----------------------------------------------------------------


async def flood(socket: WebsocketCommunicator, frames: int) -> list[str]:
    for _ in range(frames):
        await socket.send_to(text_data=json.dumps({"action": "take", "version": 999}))
    return [await socket.receive_from(timeout=TIMEOUT) for _ in range(frames)]


@override_settings(GAMES_SOCKET_RATE=(1.0, 5), GAMES_USER_RATE=(1000, 60))
async def test_a_flood_on_one_socket_is_cut_to_the_burst(
    world: World, sockets: list[WebsocketCommunicator], clock: Clock
) -> None:
    socket = await open_socket(sockets, world.match.pk, world.alice)
    replies = await flood(socket, 30)
    limited = [r for r in replies if f'data-code="{ratelimit.ERROR_CODE}"' in r]
    assert len(limited) >= 24
    assert all(error_of(r) for r in limited)
    # the socket stays open: after a pause the player is heard again
    clock.advance(1.1)
    assert 'data-code="malformed"' in await reply_to(socket, "not json")


@override_settings(GAMES_SOCKET_RATE=(100.0, 100), GAMES_USER_RATE=(12, 3600))
async def test_a_user_flooding_from_many_sockets_is_limited_per_user(
    world: World, sockets: list[WebsocketCommunicator], clock: Clock
) -> None:
    for user in (world.alice, world.bob):  # a window an earlier run may have counted in
        await sync_to_async(cache.delete)(f"games:frames:{user.pk}:{int(clock.time() // 3600)}")
    opened = [await open_socket(sockets, world.match.pk, world.alice) for _ in range(4)]
    replies = [reply for socket in opened for reply in await flood(socket, 6)]
    limited = [r for r in replies if f'data-code="{ratelimit.ERROR_CODE}"' in r]
    assert len(limited) == 24 - 12
    # another user is not affected
    bob = await open_socket(sockets, world.match.pk, world.bob)
    assert all(ratelimit.ERROR_CODE not in r for r in await flood(bob, 3))


@override_settings(GAMES_SOCKET_RATE=(100.0, 100), GAMES_USER_RATE=(12, 3600))
async def test_malformed_frames_count_against_their_user_too(
    world: World, sockets: list[WebsocketCommunicator], clock: Clock
) -> None:
    await sync_to_async(cache.delete)(f"games:frames:{world.alice.pk}:{int(clock.time() // 3600)}")
    opened = [await open_socket(sockets, world.match.pk, world.alice) for _ in range(4)]
    replies = []
    for socket in opened:
        for _ in range(6):
            await socket.send_to(text_data="not json")
        replies += [await socket.receive_from(timeout=TIMEOUT) for _ in range(6)]
    assert sum(f'data-code="{ratelimit.ERROR_CODE}"' in r for r in replies) == 24 - 12
    assert sum('data-code="malformed"' in r for r in replies) == 12


@override_settings(GAMES_SOCKET_RATE=(1.0, 5))
async def test_the_match_socket_applies_the_rate_limit(
    world: World, sockets: list[WebsocketCommunicator], clock: Clock
) -> None:
    socket = await open_socket(sockets, world.match.pk, world.alice)
    replies = await flood(socket, 20)
    assert any(f'data-code="{ratelimit.ERROR_CODE}"' in r for r in replies)
