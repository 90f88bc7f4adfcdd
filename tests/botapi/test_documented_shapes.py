"""The Bot API page (``docs/bot-api.md``) cannot drift from what the server sends: every ```json
example on it is marked with the reply it shows (``<!-- shape: NAME -->`` on the line before the
block), and each is checked against that reply of the live server (Django's test clients, the
game stream read as NDJSON): the same keys at the top and in every nested object, the same JSON
kind for every value, in a real game played through the API. The Russian page
(``docs/bot-api.ru.md``) shows the very same examples under the same markers and anchors, so the
one check of the live replies holds for both."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import AsyncClient, Client
from django.urls import reverse

from accounts.models import User
from games.models import Match, MatchPlayer
from play import selectors
from play.services import bot_turn
from tests.botapi.test_api import call, program

pytestmark = pytest.mark.django_db(transaction=True)

DOC = Path(settings.BASE_DIR) / "docs" / "bot-api.md"
DOC_RU = Path(settings.BASE_DIR) / "docs" / "bot-api.ru.md"
EXAMPLE = re.compile(r"(?:<!-- shape: (?P<shape>[\w-]+) -->\n)?```json\n(?P<body>.*?)\n```", re.S)
CHALLENGE_AI = {"level": "easy", "variant": "podkidnoy", "players": 2, "rated": False, "turn_seconds": 30}


ANCHOR = re.compile(r"^#+ .*\{#(?P<anchor>[\w-]+)\}$", re.M)


def documented(page: Path = DOC) -> list[tuple[str | None, Any]]:
    """Every ```json block of the page, with the shape its marker names (None: unmarked)."""
    return [(m["shape"], json.loads(m["body"])) for m in EXAMPLE.finditer(page.read_text(encoding="utf-8"))]


def kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__


SCALARS = {"null", "boolean", "number", "str"}


def drift(doc: Any, sent: Any, path: str = "$") -> list[str]:
    """Where ``doc`` and ``sent`` differ in keys or in the kind of a value; each element of a
    documented list of objects is compared with the first element the server sent. A ``null``
    stands for any scalar (a cover's ``target``, a draw's ``fool``); objects and lists must match."""
    if {kind(doc), kind(sent)} <= SCALARS and "null" in {kind(doc), kind(sent)}:
        return []
    if kind(doc) != kind(sent):
        return [f"{path}: documented {kind(doc)}, sent {kind(sent)}"]
    if isinstance(doc, dict):
        problems = []
        if doc.keys() != sent.keys():
            problems.append(
                f"{path}: documented only {sorted(doc.keys() - sent.keys())}, "
                f"sent only {sorted(sent.keys() - doc.keys())}"
            )
        for key in doc.keys() & sent.keys():
            problems += drift(doc[key], sent[key], f"{path}.{key}")
        return problems
    if isinstance(doc, list) and doc and sent:
        return [p for i, item in enumerate(doc) for p in drift(item, sent[0], f"{path}[{i}]")]
    return []


async def _stream_first_frame(raw: str, match_id: int) -> dict[str, Any]:
    response = await AsyncClient().get(
        reverse("botapi:stream_game", args=[match_id]), headers={"Authorization": f"Bearer {raw}"}
    )
    assert response.status_code == 200, response.content
    chunks = response.streaming_content  # type: ignore[attr-defined]
    try:
        async for chunk in chunks:
            if chunk.strip():
                frame: dict[str, Any] = json.loads(chunk)
                return frame
    finally:
        await chunks.aclose()
    raise AssertionError("the stream ended without a frame")


def stream_first_frame(raw: str, match_id: int) -> dict[str, Any]:
    """The game stream's first frame (``gameFull``), read from the streaming endpoint."""
    return async_to_sync(_stream_first_frame)(raw, match_id)


def play_others(match_id: int, user: User) -> None:
    """Let the club's bots move until the game awaits ``user``'s seat (or is over)."""
    for _ in range(50):
        loaded = selectors.match_load(match_id=match_id, moves_after=None)
        assert loaded is not None
        seat = next(p.seat for p in loaded.players if p.user_id == user.pk)
        awaiting = loaded.state.view(seat).awaiting
        if loaded.match.status != Match.Status.ACTIVE or seat in awaiting:
            return
        for other in awaiting:
            bot_turn(match_id=match_id, version=loaded.version, seat=other)
    raise AssertionError("the bots never gave the turn back")


def play_out(match_id: int, user: User) -> None:
    """Put ``user``'s seat on autopilot and let every seat move until the game is over."""
    MatchPlayer.objects.filter(match_id=match_id, user=user).update(autopilot=True)
    for _ in range(2000):
        loaded = selectors.match_load(match_id=match_id, moves_after=None)
        assert loaded is not None
        if loaded.match.status != Match.Status.ACTIVE:
            return
        for seat in loaded.state.view(0).awaiting:
            bot_turn(match_id=match_id, version=loaded.version, seat=seat)
    raise AssertionError("the game never ended")


def served(client: Client) -> dict[str, Callable[[], Any]]:
    """Each documented shape's reply, from a fresh bot account and a game played through the API."""
    user, raw = program("MyBot")
    game = call(client, "POST", "challenge_ai", raw, CHALLENGE_AI)
    assert game.status_code == 200, game.content
    match_id = game.json()["game"]["id"]

    def move() -> Any:
        frame = stream_first_frame(raw, match_id)
        action = frame["view"]["moves"][0]["notation"]
        return call(
            client, "POST", "move", raw, {"action": action, "version": frame["version"]}, match_id=match_id
        )

    def finished() -> Any:
        play_out(match_id, user)
        return stream_first_frame(raw, match_id)

    play_others(match_id, user)
    return {
        "account": lambda: call(client, "GET", "account", raw).json(),
        "challenge-ai": game.json,
        "game-full": lambda: stream_first_frame(raw, match_id),
        "move": lambda: move().json(),
        "game-finished": finished,
    }


@pytest.mark.parametrize("page", [DOC, DOC_RU], ids=["en", "ru"])
def test_every_json_example_names_the_reply_it_shows(page: Path) -> None:
    examples = documented(page)
    assert examples, "the page has no JSON example"
    assert [shape for shape, _ in examples if shape is None] == [], "a ```json block without its marker"


def test_the_russian_page_shows_the_same_examples_under_the_same_anchors() -> None:
    """A reader of ``/api/`` in Russian writes the same client: the same frames, in the same order,
    and the same section anchors (links into the page work in either language)."""
    assert documented(DOC_RU) == documented(DOC)
    assert ANCHOR.findall(DOC_RU.read_text(encoding="utf-8")) == ANCHOR.findall(
        DOC.read_text(encoding="utf-8")
    )


def test_every_documented_shape_is_what_the_server_sends(client: Client) -> None:
    replies = served(client)
    examples = documented()
    unknown = {shape for shape, _ in examples} - replies.keys()
    assert not unknown, f"no request known for {unknown}"
    assert {"challenge-ai", "game-full", "game-finished"} <= {shape for shape, _ in examples}
    for name in replies:  # in order: the game is played out last
        for shape, example in examples:
            if shape == name:
                sent = replies[name]()
                assert drift(example, sent) == [], f"{shape}: the server sent {json.dumps(sent)}"


def test_the_end_frame_is_finished_with_its_result(client: Client) -> None:
    """What the page says of the last frame: ``"finished"``, a ``result``, ``view.is_over``."""
    frame = served(client)["game-finished"]()
    assert frame["status"] == "finished" and frame["view"]["is_over"] is True
    assert sorted(seat for place in frame["result"]["places"] for seat in place) == [0, 1]
    assert frame["view"]["result"] is not None and frame["result"]["engine"] is not None
