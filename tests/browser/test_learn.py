"""A newcomer goes from the home page through a lesson to a practice game against a bot (issue
#40 §1), in Chromium on the real site, at desktop and phone size, in English and Russian: the
home page's panel opens the first lesson, a move is made by clicking cards (answered with htmx in
place), a wrong one gets the engine's sentence and the hint, and the lesson's end starts a casual
game against an easy bot. The lesson page passes axe-core's checks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .chromium import AXE_RULES, DESKTOP, PHONE
from .site import served_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

playwright = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RUNS = [("en", DESKTOP), ("ru", DESKTOP), ("en", PHONE), ("ru", PHONE)]

#: A newcomer account per run (each starts the lessons afresh), with a session for the browser.
SETUP = """
import json
from accounts.models import User

sessions = []
for n in range(4):
    user = User.objects.create_user(username=f"new{n}", email=f"new{n}@example.com", password=None,
                                    display_name=f"New{n}")
    sessions.append(signed_in_session(user))
print(json.dumps(sessions))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    with served_site(tmp_path_factory.mktemp("learn"), SETUP) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


def choose(page: Page, name: str, card: str) -> None:
    """Click a card of the board: one of the hand (``cards``) or one to beat (``target``)."""
    page.click(f'label:has(input[name="{name}"][value="{card}"])')


@pytest.mark.parametrize(("language", "size"), RUNS, ids=["en", "ru", "en-phone", "ru-phone"])
def test_a_newcomer_goes_from_the_home_page_through_a_lesson_to_a_practice_game(
    site: tuple[str, list[str]], browser: Browser, language: str, size: ViewportSize, tmp_path: Path
) -> None:
    base, sessions = site
    run = RUNS.index((language, size))
    context = browser.new_context(viewport=size, locale=language)
    context.add_cookies(
        [
            {"name": "django_language", "value": language, "url": base},
            {"name": "sessionid", "value": sessions[run], "url": base},
        ]
    )
    page = context.new_page()
    label = f"{language}-{size['width']}"
    page.goto(base + "/")
    page.screenshot(path=str(tmp_path / f"home-{label}.png"), full_page=True)
    page.click("[data-learn-next]")
    page.wait_for_url(re.compile(r"/learn/trumps/"))

    # Step 1: a wrong card first (the engine says why, the hint follows), then the right one.
    choose(page, "cards", "KC")
    choose(page, "target", "AS")
    page.click('button[name="kind"][value="cover"]')
    page.wait_for_selector(".learn-feedback__hint")
    refusal = page.locator(".learn-feedback__wrong").inner_text()
    assert ("K♣ does not beat A♠" if language == "en" else "K♣ не бьёт A♠") in refusal
    page.screenshot(path=str(tmp_path / f"wrong-{label}.png"), full_page=True)
    choose(page, "cards", "7D")
    choose(page, "target", "AS")
    page.click('button[name="kind"][value="cover"]')
    page.wait_for_selector(".learn-feedback__right")
    page.screenshot(path=str(tmp_path / f"right-{label}.png"), full_page=True)
    axe = axe_playwright.Axe()
    found = [v["id"] for v in axe.run(page, options=AXE_RULES).response["violations"]]

    # Step 2, then the lesson's end and its practice game.
    page.click(".learn-next a")
    page.wait_for_url(re.compile(r"step=2"))
    found += [v["id"] for v in axe.run(page, options=AXE_RULES).response["violations"]]
    choose(page, "cards", "10D")
    choose(page, "target", "8D")
    page.click('button[name="kind"][value="cover"]')
    page.wait_for_selector("[data-practise]")
    page.screenshot(path=str(tmp_path / f"finished-{label}.png"), full_page=True)
    found += [v["id"] for v in axe.run(page, options=AXE_RULES).response["violations"]]
    assert found == []
    index = context.new_page()
    index.goto(base + "/learn/")
    index.screenshot(path=str(tmp_path / f"index-{label}.png"), full_page=True)
    assert [v["id"] for v in axe.run(index, options=AXE_RULES).response["violations"]] == []
    assert index.locator(".learn-list__item--done").count() == 1
    index.close()
    page.click("[data-practise]")
    page.wait_for_url(re.compile(r"/play/(match|table)/\d+/"))
    page.wait_for_selector("#match-hand .hand__card", timeout=30_000)
    page.screenshot(path=str(tmp_path / f"practise-{label}.png"))
    context.close()


def test_a_lesson_is_answered_without_script_too(site: tuple[str, list[str]], browser: Browser) -> None:
    base, _sessions = site
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    page = context.new_page()
    page.goto(base + "/learn/transfer/")
    choose(page, "cards", "8H")
    page.click('button[name="kind"][value="transfer"]')
    page.wait_for_selector(".learn-feedback__right")
    assert "/learn/transfer/1/" in page.url
    context.close()
