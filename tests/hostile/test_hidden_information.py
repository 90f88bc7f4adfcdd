"""The hidden-information scanner: play whole matches and look at everything each viewer received.

For every viewer (each seated player, a logged-in spectator and an anonymous visitor) every socket
frame and, every few moves, the match page and the match's record page are scanned for card
faces: sprite references (``#card-10H``), ``data-card`` / ``data-target`` / ``data-action``
attributes, the legal-move JSON and card labels in words (``10♥``). Each card found must be one
the viewer was entitled to see at that moment:

* anything that has been face up on the table (every card named by a public engine event: leads,
  throw-ins, covers, transfers, shown trumps, redeals, circle cards), the trump card and what lies
  on the table now;
* a player's own hand, as the full engine state says it is at that moment;
* after the match: everything.

The deal's seed must not show anywhere while the match runs (it would give every card away).

The truth comes from the engine's full state and the move log, not from the presenter, so a leak
in the per-seat views would be caught too. The matches mix humans (random legal moves through
``action_apply``) and bots (``bot_turn``) in every variant, teams included.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine import Rules
from games.models import Match, Move
from play import services
from play.routing import websocket_urlpatterns
from tests.play.services_support import make_user, match_state

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 10
SUITS = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}
_CODE = r"(?:10|[2-9JQKA])[SCDH]|RJ|BJ"
_PATTERNS = [
    re.compile(r"#card-(" + _CODE + r")\""),
    re.compile(r'data-(?:card|target)="(' + _CODE + r')"'),
    re.compile(r"(?<![A-Za-z0-9])(" + _CODE + r")(?![A-Za-z0-9])"),  # inside actions / legal JSON
]
_ATTRIBUTES = re.compile(r'(?:data-legal|data-action|value)="([^"]*)"')
_LABEL = re.compile(r"(10|[2-9JQKA])([♠♣♦♥])")
_NOISE = re.compile(r'(?:nonce|name="csrfmiddlewaretoken" value|content)="[^"]*"')
_JOKERS = {"red joker": "RJ", "black joker": "BJ"}


def cards_in(text: str) -> set[str]:
    """Every card face a page or frame shows, in engine notation."""
    text = _NOISE.sub("", text)
    found = {m.group(1) for m in _PATTERNS[0].finditer(text)}
    found |= {m.group(1) for m in _PATTERNS[1].finditer(text)}
    for attribute in _ATTRIBUTES.finditer(text):
        found |= {m.group(1) for m in _PATTERNS[2].finditer(html.unescape(attribute.group(1)))}
    text = html.unescape(text)
    found |= {rank + SUITS[suit] for rank, suit in _LABEL.findall(text)}
    found |= {code for words, code in _JOKERS.items() if words in text.lower()}
    return found


def test_the_scanner_finds_cards_in_every_form() -> None:
    sample = (
        '<svg><use href="/static/cards/cards.svg#card-10H"></use></svg>'
        '<button data-card="QS"></button><span title="ace of spades">A♠</span>'
        '<form data-legal="[{&quot;action&quot;: &quot;cover 7D&gt;6D&quot;,'
        ' &quot;cards&quot;: [&quot;7D&quot;]}]"></form>'
        '<input name="csrfmiddlewaretoken" value="abc7Sxyz 9C">'
    )
    assert cards_in(sample) == {"10H", "QS", "AS", "7D", "6D"}


def test_the_scanner_is_not_blind() -> None:
    """Seat 1's hand shown to seat 0 is a leak the scanner reports."""
    alice, bob = make_user("alice"), make_user("bob")
    match = deal(Rules(), [alice, bob], None)
    hand = match_state(match).full_view().hands
    assert hand is not None
    viewer = Viewer("seat 0", alice, 0, WebsocketCommunicator(URLRouter([]), "/"), Client())
    check(viewer, match, f'<button data-card="{hand[1][0]}"></button>', "a forged frame")
    check(viewer, match, f'<button data-card="{hand[0][0]}"></button>', "a fair frame")
    assert len(viewer.leaks) == 1 and hand[1][0] in viewer.leaks[0]


@dataclass
class Viewer:
    name: str
    user: User | AnonymousUser
    seat: int | None
    socket: WebsocketCommunicator
    client: Client
    version: int = -1
    seen: int = 0
    leaks: list[str] = field(default_factory=list)


def public_cards(match: Match) -> set[str]:
    """Every card that has been face up so far, and what is on show now (the truth)."""
    seen: set[str] = set()
    for events in Move.objects.filter(match=match).values_list("events", flat=True):
        for event in events:
            seen.update(event.get("cards", ()))
            if event.get("target"):
                seen.add(event["target"])
    view = match_state(match).full_view()
    for attack, cover in view.table:
        seen.add(attack)
        if cover:
            seen.add(cover)
    seen.update(view.circle)
    seen.update(c for c in (view.drawn, view.trump_card, view.opening_trump) if c)
    return seen


def entitled(match: Match, seat: int | None) -> set[str] | None:
    """The cards ``seat`` (None: a spectator) may see now; None means all (the match is over)."""
    match.refresh_from_db()
    if not match.is_active:
        return None
    allowed = public_cards(match)
    if seat is not None:
        view = match_state(match).full_view()
        assert view.hands is not None
        allowed.update(view.hands[seat])
    return allowed


_ENTITLED: dict[tuple[int, int, int | None], set[str] | None] = {}


def check(viewer: Viewer, match: Match, text: str, where: str) -> None:
    """Record every card of ``text`` that ``viewer`` may not see now (nothing moves meanwhile:
    the test plays the next move only once every viewer has its frames), and the deal's seed,
    which would give away every card while the match runs."""
    key = (match.pk, Match.objects.values_list("version", flat=True).get(pk=match.pk), viewer.seat)
    if key not in _ENTITLED:
        _ENTITLED[key] = entitled(match, viewer.seat)
    allowed = _ENTITLED[key]
    if allowed is None:
        return
    if match.seed in text:
        viewer.leaks.append(f"{viewer.name} saw the seed in {where} at version {match.version}")
    leaked = cards_in(text) - allowed
    viewer.seen += 1
    if leaked:
        viewer.leaks.append(f"{viewer.name} saw {sorted(leaked)} in {where} at version {match.version}")


SETUPS = [
    ("podkidnoy", Rules.for_variant("podkidnoy", players=2), 2, None),
    ("perevodnoy", Rules.for_variant("perevodnoy", players=3), 2, "easy"),
    ("circle", Rules.for_variant("circle", players=3), 1, "random"),
    ("teams", Rules.for_variant("podkidnoy", players=4, teams=True), 2, "random"),
]
HEAVY = os.environ.get("DURAK_HEAVY_TESTS") == "1"
ROUNDS = 5 if HEAVY else 1


def deal(rules: Rules, humans: list[User], bots: str | None) -> Match:
    table = services.table_create(creator=humans[0], rules=rules, turn_seconds=600)
    for user in humans[1:]:
        services.table_join(table_id=table.pk, user=user)
    if bots is not None:
        services.seats_fill_with_bots(table_id=table.pk, user=humans[0], level=bots)
    return Match.objects.get(table=table)


def step(match: Match, rng: random.Random) -> bool:
    """One move by whoever the engine awaits (a random legal move for a human); False at the end."""
    match.refresh_from_db()
    if not match.is_active:
        return False
    state = match_state(match)
    seat = rng.choice(sorted(state.awaiting()))
    player = match.players.select_related("user").get(seat=seat)
    if player.user.is_bot or player.autopilot:
        services.bot_turn(match_id=match.pk, version=match.version, seat=seat)
    else:
        action = str(rng.choice(state.legal_actions(seat)))
        services.action_apply(
            match_id=match.pk, user=player.user, action_text=action, expected_version=match.version
        )
    return True


async def drain(viewer: Viewer, match: Match, version: int) -> None:
    """Receive ``viewer``'s frames up to ``version``, scanning each against the truth now."""
    while viewer.version < version:
        frame = await viewer.socket.receive_from(timeout=TIMEOUT)
        await sync_to_async(check)(viewer, match, frame, "a socket frame")
        found = re.search(r'data-version="(\d+)"', frame)
        if found:
            viewer.version = int(found.group(1))


def pages(viewer: Viewer, match: Match) -> Iterable[tuple[str, str]]:
    for name in ("games:match", "match_record", "match_export"):
        response = viewer.client.get(reverse(name, args=[match.pk]))
        assert response.status_code < 500
        if response.status_code == 200:
            yield name, response.content.decode()


def scan_pages(viewer: Viewer, match: Match) -> None:
    for name, text in pages(viewer, match):
        check(viewer, match, text, f"the page {name}")


@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.parametrize("setup", range(len(SETUPS) * ROUNDS))
async def test_no_viewer_ever_receives_a_card_it_may_not_see(setup: int) -> None:
    name, rules, humans_count, bots = SETUPS[setup % len(SETUPS)]
    rng = random.Random(setup)
    humans = [await sync_to_async(make_user)(f"{name}-p{n}") for n in range(humans_count)]
    spectator = await sync_to_async(make_user)(f"{name}-watcher")
    match = await sync_to_async(deal)(rules, humans, bots)
    router = URLRouter(websocket_urlpatterns)
    viewers = []
    people: list[tuple[str, User | AnonymousUser, int | None]] = [
        *((f"seat {n}", user, n) for n, user in enumerate(humans)),
        ("spectator", spectator, None),
        ("anonymous", AnonymousUser(), None),
    ]
    for label, user, seat in people:
        socket = WebsocketCommunicator(router, f"/ws/match/{match.pk}/")
        socket.scope["user"] = user
        assert (await socket.connect(timeout=TIMEOUT))[0]
        client = Client()
        if isinstance(user, User):
            await sync_to_async(client.force_login)(user)
        viewers.append(Viewer(label, user, seat, socket, client))
    try:
        moves = 0
        while await sync_to_async(step)(match, rng):
            moves += 1
            await sync_to_async(match.refresh_from_db)()
            for viewer in viewers:
                await drain(viewer, match, match.version)
                if moves % 15 == 0:
                    await sync_to_async(scan_pages)(viewer, match)
            assert moves < 3000
        for viewer in viewers:  # after the end everything may show; the pages must still work
            await sync_to_async(lambda v=viewer: list(pages(v, match)))()
    finally:
        for viewer in viewers:
            await viewer.socket.disconnect()
    leaks = [leak for viewer in viewers for leak in viewer.leaks]
    assert not leaks, leaks[:10]
    assert all(viewer.seen > 0 for viewer in viewers)
    assert json.dumps(match.result)  # the match ended with a result
