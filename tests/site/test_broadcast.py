"""``group_send_on_commit`` from a socket's worker thread hands the send to the serving loop and
returns at once (it used to wait for the loop and for Redis, about four fifths of a move's time in
its thread under load); from anywhere else it sends before returning. Either way the sends of one
thread keep their order, and a failed send is logged, never raised into the committed change."""

import asyncio
import logging
import threading
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import sync_to_async

from durak_site import broadcast

#: Outside a transaction ``on_commit`` runs its hook at once, but it asks the connection first.
pytestmark = pytest.mark.django_db(transaction=True)


#: Seconds a send waits for its gate before going ahead anyway (so a send that blocks the thread
#: fails the test instead of hanging it).
GATE_SECONDS = 2


class GatedLayer:
    """A channel layer whose sends wait for ``gate`` (at most ``GATE_SECONDS``), recording when
    each starts and ends."""

    def __init__(self, *, fail: bool = False) -> None:
        self.gate = threading.Event()
        self.started: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.fail = fail

    async def group_send(self, group: str, event: dict[str, Any]) -> None:
        self.started.append(event)
        deadline = asyncio.get_running_loop().time() + GATE_SECONDS
        while not self.gate.is_set() and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.001)
        if self.fail:
            raise ConnectionError("Redis went away")
        self.sent.append(event)


async def _until(condition: Any) -> None:
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the condition never held")


@pytest.mark.asyncio
async def test_a_worker_thread_of_the_loop_does_not_wait_for_its_send() -> None:
    layer = GatedLayer()

    def service() -> bool:
        for version in (1, 2, 3):
            broadcast.group_send_on_commit("match-7", {"type": "match.changed", "version": version})
        return bool(layer.sent)

    with mock.patch("durak_site.broadcast.get_channel_layer", return_value=layer):
        sent_before_returning = await sync_to_async(service, thread_sensitive=False)()
        assert not sent_before_returning
        assert layer.sent == []
        layer.gate.set()
        await _until(lambda: len(layer.sent) == 3)
    assert [event["version"] for event in layer.started] == [1, 2, 3]
    assert [event["version"] for event in layer.sent] == [1, 2, 3]
    await _until(lambda: not broadcast._in_flight)  # each task is let go once done


@pytest.mark.asyncio
async def test_the_sends_start_before_the_waiting_socket_resumes() -> None:
    """The mover's socket resumes after its move's broadcast has begun on the loop."""
    layer = GatedLayer()
    layer.gate.set()
    with mock.patch("durak_site.broadcast.get_channel_layer", return_value=layer):
        event = {"type": "match.changed", "version": 4}
        await sync_to_async(broadcast.group_send_on_commit)("match-7", event)
        assert [event["version"] for event in layer.started] == [4]
        await _until(lambda: layer.sent)


@pytest.mark.asyncio
async def test_the_serving_loop_is_the_one_asgiref_notes_for_the_thread() -> None:
    """Pins the asgiref detail the hand-over relies on."""
    loop = asyncio.get_running_loop()
    assert await sync_to_async(broadcast._serving_loop, thread_sensitive=False)() is loop
    assert await sync_to_async(broadcast._serving_loop)() is loop


def test_outside_a_loop_the_send_is_made_before_the_call_returns() -> None:
    layer = GatedLayer()
    layer.gate.set()
    seen: list[asyncio.AbstractEventLoop | None] = []

    def in_a_plain_thread() -> None:  # as a Celery task or a management command calls a service
        seen.append(broadcast._serving_loop())
        broadcast.group_send_on_commit("match-7", {"type": "match.changed", "version": 5})

    with mock.patch("durak_site.broadcast.get_channel_layer", return_value=layer):
        thread = threading.Thread(target=in_a_plain_thread)
        thread.start()
        thread.join()
    assert seen == [None]
    assert [event["version"] for event in layer.sent] == [5]


@pytest.mark.asyncio
async def test_a_failed_send_is_logged_and_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    layer = GatedLayer(fail=True)
    layer.gate.set()
    with (
        caplog.at_level(logging.ERROR, logger="durak_site.broadcast"),
        mock.patch("durak_site.broadcast.get_channel_layer", return_value=layer),
    ):
        await sync_to_async(broadcast.group_send_on_commit)("match-7", {"type": "match.changed"})
        await _until(lambda: not broadcast._in_flight)
    assert "broadcast to match-7 failed" in caplog.text
    assert layer.sent == []


def test_sends_from_outside_a_loop_share_one_loop_of_the_process() -> None:
    """Not a new event loop (and new Redis connections) per send, as ``async_to_sync`` made."""
    loops: list[asyncio.AbstractEventLoop] = []

    class Recording(GatedLayer):
        async def group_send(self, group: str, event: dict[str, Any]) -> None:
            loops.append(asyncio.get_running_loop())
            await super().group_send(group, event)

    layer = Recording()
    layer.gate.set()
    with mock.patch("durak_site.broadcast.get_channel_layer", return_value=layer):
        for version in range(3):
            event = {"type": "match.changed", "version": version}
            thread = threading.Thread(target=broadcast.group_send_on_commit, args=("match-7", event))
            thread.start()
            thread.join()
    assert [event["version"] for event in layer.sent] == [0, 1, 2]
    assert len(set(loops)) == 1 and loops[0].is_running()
