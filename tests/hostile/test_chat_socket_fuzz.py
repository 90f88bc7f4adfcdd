"""Hostile frames on the table chat socket (``play.chat.consumers``): never a crash, never a line
or a report stored, always an answer; binary frames and a random corpus included."""

from __future__ import annotations

import json
import random
import string
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from play.chat.routing import websocket_urlpatterns
from play.models import ChatLine, ChatReport
from tests.play.services_support import make_user, start_match

from .test_socket_fuzz import MALFORMED

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TIMEOUT = 5


async def test_malformed_and_random_frames_never_crash_the_chat_socket(settings: Any) -> None:
    settings.GAMES_SOCKET_RATE = (1000.0, 1000)  # the socket's own limit is its own test
    cache.clear()
    alice, bob = await sync_to_async(make_user)("alice"), await sync_to_async(make_user)("bob")
    match = await sync_to_async(start_match)(humans=[alice, bob])
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/chat/{match.pk}/")
    communicator.scope["user"] = alice
    assert (await communicator.connect(timeout=TIMEOUT))[0]
    await communicator.receive_from(timeout=TIMEOUT)
    rng = random.Random(18)
    keys = ["phrase", "text", "report", "HEADERS", "action", ""]
    values: list[object] = [None, 1, -1, 1.5, True, [], {}, "", "gl", "1", "²", "x" * 300, "\x00", "<script>"]
    corpus = [frame for frame in MALFORMED if frame]
    for _ in range(60):
        frame = {rng.choice(keys): rng.choice(values) for _ in range(rng.randint(0, 3))}
        if sum(key in frame for key in ("phrase", "text", "report")) == 1 and frame.get("phrase") == "gl":
            continue  # a good line: not what this test sends
        corpus.append(json.dumps(frame))
    corpus += ["".join(rng.choice(string.printable) for _ in range(rng.randint(1, 80))) for _ in range(20)]
    for text in corpus:
        cache.clear()  # the per-user limit is its own test
        await communicator.send_to(text_data=text)
        answer = await communicator.receive_from(timeout=TIMEOUT)
        assert 'id="chat-notice"' in answer
    await communicator.send_to(bytes_data=b"\x00\xff binary")
    assert 'id="chat-notice"' in await communicator.receive_from(timeout=TIMEOUT)
    await communicator.send_to(text_data=json.dumps({"phrase": "gl"}))
    assert 'data-code="said"' in await communicator.receive_from(timeout=TIMEOUT)  # still up
    assert "Good luck!" in await communicator.receive_from(timeout=TIMEOUT)
    assert await ChatLine.objects.acount() == 1
    assert not await ChatReport.objects.aexists()
    await communicator.disconnect()
