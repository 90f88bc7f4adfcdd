"""Error reports and log lines: an error provoked in a live match reaches Sentry's transport with
nothing secret in it, and every log line of a move's path says its request, match and version in
both formats."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import sentry_sdk
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from durak_site import logcontext
from durak_site.logging import JsonFormatter
from ops import errors, sentry
from play import selectors
from play.routing import websocket_urlpatterns
from play.services import rows, turn
from tests.play.services_support import make_user, start_match

#: The text format of the settings' LOGGING.
TEXT_FORMAT: str = settings.LOGGING["formatters"]["text"]["format"]  # type: ignore[index]


class KeptTransport(Transport):
    """Sentry's transport that keeps what would have been sent."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.sent: list[dict[str, Any]] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        for item in envelope.items:
            if item.payload.json is not None:
                self.sent.append(item.payload.json)


@pytest.fixture
def reported(settings: Any) -> Iterator[KeptTransport]:
    transport = KeptTransport()
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    sentry.start("https://public@sentry.invalid/1", environment="test", transport=transport)
    try:
        yield transport
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.init(dsn=None)


@pytest.fixture(autouse=True)
def _seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "f" * 64)


@pytest.mark.django_db
def test_an_error_in_a_live_match_reaches_sentry_without_a_secret(
    reported: KeptTransport, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob])
    loaded = selectors.match_load(match_id=match.pk)
    assert loaded is not None
    seat = min(loaded.state.awaiting())
    mover = (alice, bob)[seat]
    hand: list[str] = list(match.snapshot["hands"][seat])  # the mover's cards, as stored
    snapshot = json.dumps(match.snapshot)

    def broken_commit(loaded: Any) -> None:
        logging.getLogger("play.services.turn").error(
            "about to fail", extra={"hand": hand, "seed": match.seed}
        )
        raise RuntimeError(f"cannot commit {snapshot}")

    monkeypatch.setattr(turn, "commit", broken_commit)
    client = Client(raise_request_exception=False)
    client.force_login(mover)
    client.cookies["csrftoken"] = "csrf-" + "c" * 27
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    response = client.post(
        reverse("games:match_action", args=[match.pk]),
        {"action": str(loaded.state.default_action(seat)), "version": match.version, "token": "t0ken-abc"},
        HTTP_AUTHORIZATION="Bearer bot-token-xyz",
    )
    assert response.status_code == 500
    sentry_sdk.flush()

    text = json.dumps(reported.sent)
    assert "RuntimeError" in text  # the error did leave, as a report
    for secret in (
        session,
        "c" * 27,
        "t0ken-abc",
        "bot-token-xyz",
        match.seed,
        snapshot[:40],
        json.dumps(hand),
    ):
        assert secret not in text
    assert '"hands"' not in text and '"stock"' not in text


def test_the_scrubber_walks_every_level() -> None:
    event = {"extra": {"ctx": [{"Hand": ["6S"], "ok": 1, "note": 'state {"stock": []}'}]}}
    assert sentry.scrub(event) == {
        "extra": {"ctx": [{"Hand": sentry.SCRUBBED, "ok": 1, "note": sentry.SCRUBBED}]}
    }


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.addFilter(logcontext.ContextFilter())
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_moves_log_lines_carry_its_request_match_and_version(monkeypatch: pytest.MonkeyPatch) -> None:
    from asgiref.sync import sync_to_async

    alice, bob = await sync_to_async(make_user)("alice"), await sync_to_async(make_user)("bob")
    match = await sync_to_async(start_match)(humans=[alice, bob])
    loaded = await sync_to_async(selectors.match_load)(match_id=match.pk)
    assert loaded is not None
    seat = min(loaded.state.awaiting())
    update = rows.match_update

    def logged_update(*args: Any, **kwargs: Any) -> Any:
        logging.getLogger("play.services.rows").warning("saving the match")
        return update(*args, **kwargs)

    monkeypatch.setattr(rows, "match_update", logged_update)
    kept = Kept()
    logging.getLogger().addHandler(kept)
    try:
        socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{match.pk}/")
        socket.scope["user"] = (alice, bob)[seat]
        assert (await socket.connect(timeout=5))[0]
        await socket.receive_from(timeout=5)
        await socket.send_to(
            json.dumps({"action": str(loaded.state.default_action(seat)), "version": match.version})
        )
        await socket.receive_from(timeout=5)
        await socket.disconnect()
    finally:
        logging.getLogger().removeHandler(kept)
    [line] = [r for r in kept.records if r.getMessage() == "saving the match"]
    assert line.request_id != "-" and len(line.request_id) == 32  # type: ignore[attr-defined]
    assert (line.match_id, line.version) == (match.pk, match.version)  # type: ignore[attr-defined]
    text = logging.Formatter(TEXT_FORMAT).format(line)
    assert f"[{line.request_id} match={match.pk} v={match.version}]" in text  # type: ignore[attr-defined]
    fields = json.loads(JsonFormatter().format(line))
    assert (fields["request_id"], fields["match_id"], fields["version"]) == (
        line.request_id,  # type: ignore[attr-defined]
        match.pk,
        match.version,
    )


@pytest.mark.django_db
def test_errors_of_the_last_hour_are_counted_across_the_cache() -> None:
    before = errors.errors_last_hour()
    handler = errors.ErrorCountHandler(level=logging.ERROR)
    handler.handle(logging.makeLogRecord({"levelno": logging.ERROR, "msg": "boom"}))
    handler.handle(logging.makeLogRecord({"levelno": logging.ERROR, "msg": "boom"}))
    assert errors.errors_last_hour() == before + 2
