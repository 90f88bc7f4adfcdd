"""Quick pairing in Chromium, in English and in Russian: two newcomers sign up, press the same
"Play now" cell of the home page's grid, the first sees her seek waiting (and the grid's live
count), and when the second presses it both are taken to the same match at once (the first by
her personal socket, without touching the page). And a challenge sent from a profile reaches
the other player's background tab on another page (a notice, and the tab's title), who accepts
it: both are taken to the match. Screenshots under ``build/screenshots/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from .chromium import DESKTOP, PHONE, ROOT, wait_for_path
from .site import served_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

playwright = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTEFACTS = ROOT / "build" / "screenshots"
PASSWORD = "correct-horse-battery-9"
CELL = "#pairing-grid form[data-setup='podkidnoy-2-36-30-casual'] button"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served_site(tmp_path_factory.mktemp("pairing"), "") as site:
        yield site.url


def shoot(page: Page, name: str, *, full_page: bool = True) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=full_page)


def newcomer(browser: Browser, server: str, name: str, language: str, viewport: ViewportSize) -> Page:
    context = browser.new_context(viewport=viewport, locale=language)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page = context.new_page()
    page.goto(f"{server}/accounts/signup/")
    page.fill("input[name=email]", f"{name}@example.com")
    page.fill("input[name=display_name]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)
    return page


@pytest.mark.parametrize(
    ("language", "waiting_words"), [("en", "Looking for players"), ("ru", "Ищем игроков")]
)
def test_two_newcomers_meet_through_quick_pairing_and_are_taken_to_their_match(
    browser: Browser, server: str, language: str, waiting_words: str
) -> None:
    errors: list[str] = []
    first = newcomer(browser, server, f"First{language}", language, DESKTOP)
    second = newcomer(browser, server, f"Second{language}", language, PHONE)
    for page in (first, second):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server)
        page.wait_for_selector(CELL)
    assert first.get_attribute("html", "lang") == language

    first.click(CELL)
    first.wait_for_selector("#pairing-grid .pairing-wait")
    assert waiting_words in first.inner_text("#pairing-grid .pairing-wait")
    # The second player's grid counts the first one waiting, live (over /ws/pairing/).
    second.wait_for_selector("#pairing-grid[data-waiting='1']")
    shoot(first, f"pairing-waiting-{language}-desktop")
    shoot(second, f"pairing-grid-{language}-phone")

    second.click(CELL)
    wait_for_path(second, re.compile(r"/play/match/\d+/$"))
    wait_for_path(first, re.compile(r"/play/match/\d+/$"))
    assert first.url == second.url
    for page in (first, second):
        page.wait_for_selector(".hand__card", timeout=15_000)
        assert page.locator(".hand__card").count() == 6
    shoot(first, f"pairing-match-{language}-desktop")
    shoot(second, f"pairing-match-{language}-phone")
    assert errors == []
    for page in (first, second):
        page.context.close()


@pytest.mark.parametrize(("language", "words"), [("en", "challenges you"), ("ru", "вызывает вас")])
def test_a_challenge_from_a_profile_arrives_live_on_another_page_and_accepting_starts_the_match(
    browser: Browser, server: str, language: str, words: str
) -> None:
    errors: list[str] = []
    olga = newcomer(browser, server, f"Olga{language}", language, DESKTOP)
    petr = newcomer(browser, server, f"Petr{language}", language, PHONE)
    for page in (olga, petr):
        page.on("pageerror", lambda error: errors.append(str(error)))
    petr.goto(f"{server}/me/")
    petr.wait_for_url(re.compile(r"/players/\d+/$"))
    petrs_profile = petr.url
    petr.goto(f"{server}/rules/")  # any page: the personal socket is open on every one
    # His tab is in the background (§6: the tab title tells him).
    petr.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true})")

    olga.goto(petrs_profile)
    olga.click("a.challenge-link")
    olga.wait_for_url(re.compile(r"/pair/challenge/\d+/$"))
    olga.select_option("select[name=turn_seconds]", "60")
    olga.click("main form button[type=submit]")
    olga.wait_for_url(re.compile(r"/pair/challenges/\d+/$"))

    petr.wait_for_selector(".pairing-notice[data-challenge]")
    assert words in petr.inner_text(".pairing-notice[data-challenge]")
    assert petr.title().startswith("● ") and words in petr.title()
    shoot(petr, f"pairing-challenge-{language}-phone", full_page=False)  # the notice, over the rules
    petr.click(".pairing-notice[data-challenge] form[action$='/accept/'] button")
    wait_for_path(petr, re.compile(r"/play/match/\d+/$"))
    wait_for_path(olga, re.compile(r"/play/match/\d+/$"))
    assert olga.url == petr.url
    olga.wait_for_selector(".hand__card", timeout=15_000)
    assert errors == []
    for page in (olga, petr):
        page.context.close()
