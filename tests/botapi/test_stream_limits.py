"""The Bot API's streams are limited before any database work: one event stream per token (a
second is refused with 429 while the first is open), a cap on a token's game streams and on the
streams of one client address, bogus tokens included; a stream's slot is given back however the
stream ends (its response closed unread, or its lines run out)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import AsyncClient, override_settings
from django.urls import reverse
from psycopg_pool import PoolTimeout

from botapi import services, views
from botapi.models import ApiToken
from botapi.tokens import digest
from games.models import Match
from tests.play.services_support import make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

#: A fresh client address per client: slots are counted per address in the cache, which outlives
#: a test.
_addresses = (f"198.51.100.{n}" for n in itertools.count(1))


class AddressClient(AsyncClient):
    """Django's async test client, from an address of its own (Django's is always 127.0.0.1)."""

    def __init__(self) -> None:
        super().__init__()
        self.address = next(_addresses)

    def _base_scope(self, **request: Any) -> dict[str, Any]:
        scope: dict[str, Any] = super()._base_scope(**request)  # type: ignore[misc]  # not in the stubs
        scope["client"] = [self.address, 0]
        return scope


def client() -> AddressClient:
    return AddressClient()


def _program(name: str) -> str:
    user = make_user(name)
    services.account_upgrade(user)
    _token, raw = services.token_create(user, "test")
    return raw


async def program(name: str) -> str:
    return await sync_to_async(_program)(name)


async def event_stream(browser: AsyncClient, raw: str) -> Any:
    return await browser.get(reverse("botapi:stream_event"), headers={"Authorization": f"Bearer {raw}"})


async def game_stream(browser: AsyncClient, raw: str, match_id: int) -> Any:
    return await browser.get(
        reverse("botapi:stream_game", args=[match_id]), headers={"Authorization": f"Bearer {raw}"}
    )


def refused(response: Any) -> bool:
    return bool(response.status_code == 429 and response.json()["code"] == "too_many_streams")


async def test_a_token_has_one_event_stream_at_a_time() -> None:
    raw, browser = await program("robo"), client()
    first = await event_stream(browser, raw)
    assert first.status_code == 200 and first.streaming
    second = await event_stream(client(), raw)  # from elsewhere too
    assert refused(second) and "one at a time" in second.json()["error"]
    await sync_to_async(first.close)()  # the client went away: the slot is free again
    third = await event_stream(browser, raw)
    assert third.status_code == 200
    await sync_to_async(third.close)()


async def test_two_tokens_each_have_their_event_stream() -> None:
    browser = client()
    one = await event_stream(browser, await program("robo"))
    two = await event_stream(browser, await program("otto"))
    assert one.status_code == two.status_code == 200
    for response in (one, two):
        await sync_to_async(response.close)()


async def _a_game_of(raw: str) -> int:
    def challenge() -> int:
        robot = ApiToken.objects.select_related("user").get(digest=digest(raw)).user
        match = services.challenge_ai(
            robot, variant="podkidnoy", players=2, level="random", rated=False, turn_seconds=30
        )
        return int(match.pk)

    return await sync_to_async(challenge)()


@override_settings(BOTAPI_GAME_STREAMS_PER_TOKEN=2)
async def test_a_token_follows_only_so_many_games_at_once() -> None:
    raw, browser = await program("robo"), client()
    match_id = await _a_game_of(raw)
    open_ = [await game_stream(browser, raw, match_id) for _ in range(2)]
    assert [r.status_code for r in open_] == [200, 200]
    assert refused(await game_stream(browser, raw, match_id))
    await sync_to_async(open_[0].close)()
    again = await game_stream(browser, raw, match_id)
    assert again.status_code == 200
    for response in (open_[1], again):
        await sync_to_async(response.close)()


@override_settings(BOTAPI_STREAMS_PER_ADDRESS=2)
async def test_an_address_over_its_streams_is_refused_before_any_token_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    browser = client()
    held = [await event_stream(browser, await program(name)) for name in ("robo", "otto")]
    assert [r.status_code for r in held] == [200, 200]
    late = await program("late")

    lookups: list[object] = []
    monkeypatch.setattr(views, "token_user", lambda request: lookups.append(request))
    for raw in (late, "durak_bogus"):
        response = await event_stream(browser, raw)
        assert refused(response) and "address" in response.json()["error"]
    assert lookups == []
    assert (await event_stream(client(), late)).status_code == 401  # another address gets as far
    assert len(lookups) == 1
    for response in held:
        await sync_to_async(response.close)()


async def test_a_refused_token_holds_no_slot() -> None:
    """A bogus token is turned away after the lookup, and gives its slots back."""
    browser = client()
    for _ in range(3):
        assert (await event_stream(browser, "durak_bogus")).status_code == 401
    not_mine = await game_stream(browser, await program("robo"), 999999)
    assert not_mine.status_code == 404
    with override_settings(BOTAPI_STREAMS_PER_ADDRESS=1):
        ok = await event_stream(browser, await program("otto"))
        assert ok.status_code == 200
        await sync_to_async(ok.close)()


async def test_a_stream_that_ends_gives_its_slot_back() -> None:
    raw, browser = await program("robo"), client()
    match_id = await _a_game_of(raw)
    await sync_to_async(Match.objects.filter(pk=match_id).update)(status=Match.Status.ABORTED)
    with override_settings(BOTAPI_GAME_STREAMS_PER_TOKEN=1):
        for _ in range(2):
            response = await game_stream(browser, raw, match_id)
            lines = [chunk async for chunk in response.streaming_content]
            frames = [json.loads(line) for line in b"".join(lines).splitlines() if line.strip()]
            assert [f["type"] for f in frames] == ["gameFull"]


async def test_a_stream_the_busy_database_refused_gives_its_slot_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The token's lookup finds the pool empty: a 503, and the token's one event stream is free."""
    raw, browser = await program("robo"), client()

    def busy(request: object) -> None:
        with connection.wrap_database_errors:
            raise PoolTimeout("couldn't get a connection after 10.00 sec")

    monkeypatch.setattr(views, "token_user", busy)
    response = await event_stream(browser, raw)
    assert response.status_code == 503 and response.json()["code"] == "busy"
    monkeypatch.undo()
    again = await event_stream(browser, raw)
    assert again.status_code == 200
    await sync_to_async(again.close)()
