"""The people app's base: the personal socket marks a player online on any process (the rows are
in the database) until their last socket closes, which sends ``user_offline``; follows and blocks
refuse what makes no sense, and a block cuts the follows both ways."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from durak_site.errors import Refused
from people import selectors, services
from people.consumers import personal_group
from people.models import Follow, Presence
from people.routing import websocket_urlpatterns
from people.signals import user_offline
from tests.play.services_support import make_user

TIMEOUT = 5


async def open_socket(user: Any) -> tuple[bool, Any, WebsocketCommunicator]:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/me/")
    communicator.scope["user"] = user
    connected, code = await communicator.connect(timeout=TIMEOUT)
    return connected, code, communicator


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_online_while_any_socket_is_open_and_offline_sent_at_the_last_close() -> None:
    olga = await sync_to_async(make_user)("olga")
    gone: list[int] = []

    def heard(sender: Any, user_id: int, **kwargs: Any) -> None:
        gone.append(user_id)

    user_offline.connect(heard)
    try:
        first = (await open_socket(olga))[2]
        second = (await open_socket(olga))[2]
        assert await sync_to_async(selectors.is_online)(olga.pk)
        await first.disconnect()
        assert await sync_to_async(selectors.is_online)(olga.pk) and gone == []
        await second.disconnect()
        assert not await sync_to_async(selectors.is_online)(olga.pk)
        assert gone == [olga.pk]
    finally:
        user_offline.disconnect(heard)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_personal_group_reaches_the_page_and_strangers_are_closed() -> None:
    olga = await sync_to_async(make_user)("olga")
    connected, code, _socket = await open_socket(AnonymousUser())
    assert not connected and code == 4401
    connected, _code, socket = await open_socket(olga)
    assert connected
    await get_channel_layer().group_send(
        personal_group(olga.pk), {"type": "personal.event", "payload": {"kind": "hello"}}
    )
    assert await socket.receive_json_from(timeout=TIMEOUT) == {"kind": "hello"}
    await socket.disconnect()


@pytest.mark.django_db
def test_a_socket_whose_heart_stopped_no_longer_counts() -> None:
    olga = make_user("olga")
    services.presence_open(olga.pk, "dead-process.1")
    Presence.objects.update(seen=timezone.now() - selectors.PRESENCE_TTL - timedelta(seconds=1))
    assert not selectors.is_online(olga.pk)
    services.presence_open(olga.pk, "live-process.1")  # her next socket sweeps the dead row
    assert list(Presence.objects.values_list("channel_name", flat=True)) == ["live-process.1"]


@pytest.mark.django_db
def test_follows_and_blocks() -> None:
    olga, anna = make_user("olga"), make_user("anna")
    with pytest.raises(Refused):
        services.follow(olga, olga)
    services.follow(olga, anna)
    services.follow(olga, anna)  # again: still one
    services.follow(anna, olga)
    assert selectors.followed_ids(olga.pk) == {anna.pk}
    services.block(anna, olga)
    assert not Follow.objects.exists(), "a block cuts the follows both ways"
    assert selectors.blocked_between(olga.pk, anna.pk) and selectors.blocked_between(anna.pk, olga.pk)
    assert selectors.blocked_ids(olga.pk) == {anna.pk} and selectors.blocked_ids(anna.pk) == {olga.pk}
    with pytest.raises(Refused):
        services.follow(olga, anna)
    services.unblock(anna, olga)
    assert not selectors.blocked_between(olga.pk, anna.pk)
