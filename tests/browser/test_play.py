"""Two people play a whole match in Chromium, through the real site: daphne serving HTTP and
websockets, the embedded Celery worker, htmx and the page's script.

Alice opens a table with the new-table form, Bob sits down from the table page, both are taken to
the match by the table socket, and they play by choosing cards and their targets on the felt
(by mouse and by keyboard, with the T and P shortcuts) until the game is over. The server runs
as a subprocess on its own SQLite file (and without any service URL), so the test needs nothing
but Chromium.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from .chromium import CHROMIUM, CHROMIUM_ARGS, wait_for_path
from .site import served_site

playwright = pytest.importorskip("playwright.sync_api")
if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "correct-horse-battery-9"
MOVE_LIMIT = 400

SETUP_USERS = f"""
from accounts.models import User
for name in ("alice", "bob"):
    User.objects.create_user(username=name, email=name + "@example.com",
                             password={PASSWORD!r}, display_name=name.capitalize())
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site with Alice's and Bob's accounts; yields its base URL."""
    with served_site(tmp_path_factory.mktemp("browser"), SETUP_USERS) as site:
        yield site.url


def log_in(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", f"{name}@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def version(page: Page) -> int:
    return int(page.get_attribute("#match-status", "data-version") or -1)


def wait_for_version(page: Page, *, above: int, timeout: float = 10) -> None:
    """Poll the page's match version (the site's CSP forbids evaluated predicates)."""
    deadline = time.monotonic() + timeout
    while version(page) <= above:
        assert time.monotonic() < deadline, f"version stayed at {version(page)}"
        time.sleep(0.02)


def is_my_move(page: Page) -> bool:
    return page.get_attribute("#match-status", "data-your-move") == "1"


def is_over(page: Page) -> bool:
    shown = page.locator("#match-result:not([hidden])").count() > 0
    return shown or "over" in page.inner_text("#match-status")


def play_one_move(page: Page) -> str:
    """Choose like a hurried person, through the felt: pass (bito) when allowed, else cover the
    first open card with a chosen card, else lead the first card, else take."""
    legal: list[dict[str, object]] = json.loads(page.get_attribute("#move-form", "data-legal") or "[]")
    actions = [str(move["action"]) for move in legal]
    if "pass" in actions:
        page.keyboard.press("p")  # the keyboard shortcut of the pass (bito) button
        return "pass"
    covers = [a for a in actions if a.startswith("cover ")]
    if covers:
        card, target = covers[0].split()[1].split(">")
        if len(covers) % 2:  # by mouse: the card, then the attack card it covers
            page.click(f".hand__card[data-card='{card}']")
            page.click(f".pair__target[data-target='{target}']")
        else:  # by keyboard: focus and choose the card, then the target
            page.focus(f".hand__card[data-card='{card}']")
            page.keyboard.press("Enter")
            page.focus(f".pair__target[data-target='{target}']")
            page.keyboard.press("Enter")
        return covers[0]
    attacks = [a for a in actions if a.startswith("attack ") and len(a.split()) == 2]
    if attacks:
        card = attacks[0].split()[1]
        page.click(f".hand__card[data-card='{card}']")
        page.click(f"#move-choice [data-action='{attacks[0]}']")
        return attacks[0]
    page.keyboard.press("t")
    return "take"


def test_two_people_play_a_match_to_its_end(server: str) -> None:
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            alice = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            bob = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            errors: list[str] = []
            for page in (alice, bob):
                page.on("pageerror", lambda error: errors.append(str(error)))

            log_in(alice, server, "alice")
            alice.goto(f"{server}/play/new/")
            alice.select_option("select[name=deck]", "24")
            alice.select_option("select[name=turn_seconds]", "60")
            alice.click("form.table-form button[type=submit]")
            alice.wait_for_url(re.compile(r"/play/table/\d+/$"))
            table_url = alice.url

            log_in(bob, server, "bob")
            bob.goto(table_url)
            bob.click("#table-seats form button[type=submit]")
            for page in (alice, bob):  # Bob by the redirect, Alice by her table socket
                wait_for_path(page, re.compile(r"/play/match/\d+/$"))
                page.wait_for_selector(".hand__card", timeout=10_000)

            moves: list[str] = []
            while not (is_over(alice) and is_over(bob)):
                assert len(moves) < MOVE_LIMIT, "the match did not end"
                mover = next((page for page in (alice, bob) if is_my_move(page)), None)
                if mover is None:
                    time.sleep(0.05)
                    continue
                before = version(mover)
                moves.append(play_one_move(mover))
                for page in (alice, bob):  # every socket hears of the move
                    wait_for_version(page, above=before)
            for page in (alice, bob):
                assert page.locator("#match-result .match-result__places li").count() >= 1
                assert page.inner_text("#match-error") == ""
            assert any(m.startswith("cover ") for m in moves)
            assert "pass" in moves or "take" in moves
            log_items = alice.locator("#match-log-list li").count()
            assert log_items >= len(moves)
            assert not errors, errors
        finally:
            browser.close()
