"""Every main page passes axe-core's checks (WCAG 2.2 A and AA, and axe's best practices) in
Chromium: in English and Russian at desktop size, and in English at phone size, both as a visitor
and signed in. The signed-in pages include a live match (the felt, the hand, the move form) and
a finished one, a match's record and replay, an open table and a running tournament.

axe-core comes with ``axe-playwright-python`` (a dev dependency); the pages are the real site,
served as in the other browser tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import AXE_RULES, DESKTOP, PHONE
from .site import served_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

playwright = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [pytest.mark.browser, pytest.mark.slow]


#: A signed-in player with a finished match, a live one, an open table, a running tournament and
#: a game in a running arena (its page, then the arena's, which lets her stay: she has seen her
#: game's page); prints their ids and a session key for the browser.
SETUP = """
import json
from accounts.models import User
from play import selectors, services
from games.engine import Rules
from tests.tournaments.support import open_arena, started_with_player
from tournaments import services as cups

ann = User.objects.create_user(username="ann", email="ann@example.com", password=None, display_name="Ann")
arena = open_arena(ann, 3, turn_seconds=600)
cups.entry_register(tournament_id=arena.pk, user=ann)
cups.tournament_start(tournament_id=arena.pk, user=ann)
arena_match = selectors.table_current_match(table_id=arena.pairings.get(players__user=ann).table_id)
tables = [services.table_create(creator=ann, rules=Rules(), turn_seconds=600) for _ in range(3)]
for table in tables[:2]:
    services.seats_fill_with_bots(table_id=table.pk, user=ann, level="easy")
finished, live = (selectors.table_current_match(table_id=table.pk) for table in tables[:2])
services.match_resign(match_id=finished.pk, user=ann)
tournament, _player = started_with_player(ann, 3, "bob")
session_key = signed_in_session(ann)
print(json.dumps({"session": session_key, "user": ann.pk, "finished": finished.pk,
                  "live": live.pk, "table": tables[2].pk, "tournament": tournament.pk,
                  "arena": arena.pk, "arena_match": arena_match.pk}))
"""

VISITOR_PAGES = [
    "/",
    "/accounts/signup/",
    "/accounts/login/",
    "/play/",
    "/leaderboard/",
    "/tournaments/",
    "/fair/",
    "/rules/",
    "/api/",
]
PLAYER_PAGES = [
    "/play/",
    "/play/new/",
    "/play/table/{table}/",
    "/play/match/{live}/",
    "/play/match/{finished}/",
    "/matches/{finished}/",
    "/matches/{finished}/?step=3",
    "/history/",
    "/players/{user}/",
    "/tournaments/new/",
    "/tournaments/{tournament}/",
    "/play/match/{arena_match}/",
    "/tournaments/{arena}/",
    "/pair/new/",
    "/pair/alerts/",
    "/friends/",
    "/account/bot/",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with served_site(tmp_path_factory.mktemp("a11y"), SETUP) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("language", "size"), [("en", DESKTOP), ("ru", DESKTOP), ("en", PHONE)], ids=["en", "ru", "en-phone"]
)
def test_the_main_pages_have_no_accessibility_violations(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: ViewportSize
) -> None:
    base, ids = site
    axe = axe_playwright.Axe()
    found = []
    for signed_in, paths in ((False, VISITOR_PAGES), (True, PLAYER_PAGES)):
        context = browser.new_context(viewport=size, locale=language)
        context.add_cookies([{"name": "django_language", "value": language, "url": base}])
        if signed_in:
            context.add_cookies([{"name": "sessionid", "value": ids["session"], "url": base}])
        page = context.new_page()
        for path in paths:
            url = base + path.format(**ids)
            response = page.goto(url)
            assert response is not None and response.ok, (url, response and response.status)
            assert page.url == url, f"{url} redirected to {page.url}"
            assert page.locator("html").get_attribute("lang") == language
            found += violations(axe, page, path)
            if path == "/play/match/{live}/":
                # What the page's script draws: a chosen card's choices, and the list of all moves.
                page.wait_for_selector('#match-status[data-your-move="1"]')  # after a bot's lead
                legal = page.locator(".hand__card--legal")
                if legal.count():
                    legal.first.click()
                page.click("details.move-list summary")
                found += violations(axe, page, f"{path} (a card chosen, all moves open)")
        context.close()
    assert found == []


def violations(axe: Any, page: Page, label: str) -> list[str]:
    """axe's violations on ``page`` as it is now, one line each."""
    found = []
    for violation in axe.run(page, options=AXE_RULES).response["violations"]:
        targets = [node["target"] for node in violation["nodes"]]
        found.append(f"{label} [{violation['impact']}] {violation['id']}: {violation['help']} {targets}")
    return found
