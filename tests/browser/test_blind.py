"""Blind mode (issue #40 §4, ``docs/accessibility.md``): a whole game of each variant against a
bot played in Chromium with the keyboard only (``page.keyboard``: no click, no focus call), the
live regions saying the bot's moves and "your move"; and axe-core on the match page in the mode,
in English and Russian at desktop and phone size, with screenshots to
``build/screenshots/blind-*.png``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import DESKTOP, PHONE, ROOT, signed_in, visit
from .site import served_site
from .test_accessibility import violations

playwright = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")
if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTEFACTS = ROOT / "build" / "screenshots"
VARIANTS = ("podkidnoy", "perevodnoy", "circle")
MOVE_LIMIT = 300

#: Ann (blind mode on) with a game of each variant against a random bot and one more podkidnoy
#: game to look at; prints the ids, the bots' names and a session key.
SETUP = """
import json
from accounts.models import User
from games.engine import Rules
from play import selectors, services

ann = User.objects.create_user(username="ann", email="ann@example.com", password=None, display_name="Ann",
                               blind_mode=True)
ids = {}
for key, variant in (("podkidnoy", "podkidnoy"), ("perevodnoy", "perevodnoy"), ("circle", "circle"),
                     ("look", "podkidnoy")):
    rules = Rules.for_variant(variant, **({} if variant == "circle" else {"deck": 24}))
    table = services.table_create(creator=ann, rules=rules, turn_seconds=600)
    services.seats_fill_with_bots(table_id=table.pk, user=ann, level="random")
    match = selectors.table_current_match(table_id=table.pk)
    ids[key] = match.pk
    ids[key + "-bot"] = str(match.players.exclude(user=ann).get().user.public_name)
ids["session"] = signed_in_session(ann)
print(json.dumps(ids))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with served_site(tmp_path_factory.mktemp("blind"), SETUP, env={"GAMES_BOT_DELAY": "0.05,0.1"}) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


def version(page: Page) -> int:
    return int(page.get_attribute("#match-status", "data-version") or -1)


def is_over(page: Page) -> bool:
    return page.locator("#match-result:not([hidden])").count() > 0


def heard(page: Page, said: list[str], urgent: list[str]) -> None:
    """Note what the two live regions say now."""
    for region, seen in (("#blind-said", said), ("#blind-urgent", urgent)):
        text = page.inner_text(region).strip()
        if text and (not seen or seen[-1] != text):
            seen.append(text)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_whole_game_by_keyboard_with_the_events_said(
    site: tuple[str, dict[str, Any]], browser: Browser, variant: str
) -> None:
    base, ids = site
    context = signed_in(browser, base, ids, "en", DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    visit(page, f"{base}/play/match/{ids[variant]}/")
    page.wait_for_selector("#blind")
    said: list[str] = []
    urgent: list[str] = []
    moves = 0
    read_hand = False
    retries = 0
    deadline = time.monotonic() + 240
    while not is_over(page):
        assert time.monotonic() < deadline and moves < MOVE_LIMIT, f"the game did not end ({moves} moves)"
        heard(page, said, urgent)
        if (
            page.get_attribute("#match-status", "data-your-move") != "1"
            or not page.locator("#blind-move-list input").count()
        ):
            page.wait_for_timeout(30)
            continue
        if not read_hand and page.locator("#blind-hand li").count():  # a key that reads: the hand
            page.keyboard.press("h")
            page.wait_for_timeout(120)
            assert page.inner_text("#blind-said").startswith("Your hand:")
            read_hand = True
        before = version(page)
        page.keyboard.press("m")  # to the moves: the first is chosen
        focused = page.evaluate("document.activeElement && document.activeElement.name")
        assert focused == "blind-action"
        for _ in range(moves % 2):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        moves += 1
        until = time.monotonic() + 5
        while version(page) <= before and not is_over(page):
            if time.monotonic() > until:  # a push overtook the key (a stale move): choose again
                retries += 1
                assert retries <= 5, "moves were not played"
                break
            page.wait_for_timeout(20)
    page.wait_for_timeout(200)
    heard(page, said, urgent)
    bot = ids[f"{variant}-bot"]
    assert any(bot in text for text in said), said[:10]
    assert any(text.startswith("Your move") for text in urgent), urgent[:10]
    assert read_hand
    assert page.locator("#match-result .match-result__places li").count() >= 1
    assert not errors, errors
    context.close()


@pytest.mark.parametrize(
    ("language", "size"), [("en", DESKTOP), ("ru", DESKTOP), ("en", PHONE), ("ru", PHONE)]
)
def test_the_blind_match_page_passes_axe_and_is_drawn(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: ViewportSize
) -> None:
    base, ids = site
    context = signed_in(browser, base, ids, language, size)
    page = context.new_page()
    visit(page, f"{base}/play/match/{ids['look']}/")
    page.wait_for_selector('#match-status[data-your-move="1"]')
    page.wait_for_selector("#blind-move-list input")
    page.keyboard.press("t")
    page.wait_for_timeout(150)
    assert page.inner_text("#blind-said")
    found = violations(axe_playwright.Axe(), page, f"blind {language} {size['width']}")
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"blind-{language}-{size['width']}.png"), full_page=True)
    context.close()
    assert found == []
