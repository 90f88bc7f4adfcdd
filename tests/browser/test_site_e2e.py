"""The whole site in Chromium, as a newcomer meets it: sign up, open a table, fill it with bots,
play the match to its end on the felt, find it in the history and step through its replay; a
spectator on a phone watches the match live. Screenshots of the main pages at phone (390x844)
and desktop (1280x800) sizes are kept under ``build/screenshots/`` (gitignored; CI can keep them
as artefacts). The test writes nothing else in the checkout: the tracked ``docs/screenshots/``
are chosen and committed by hand, never rewritten by a test run.

The server is ``manage.py serve`` on its own SQLite file (embedded Celery worker: the bots play
through it), so the test needs nothing but Chromium.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .chromium import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, ROOT, wait_for_path
from .site import served_site

if TYPE_CHECKING:
    from playwright.sync_api import Page

playwright = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTEFACTS = ROOT / "build" / "screenshots"
DOCS = ROOT / "docs"
PASSWORD = "correct-horse-battery-9"
MOVE_LIMIT = 400

SETUP = f"""
from accounts.models import User
User.objects.create_user(username="watcher", email="watcher@example.com", password={PASSWORD!r},
                         display_name="Watcher")
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site with a spectator's account; yields its base URL."""
    with served_site(tmp_path_factory.mktemp("e2e"), SETUP) as site:
        yield site.url


def shoot(page: Page, name: str) -> None:
    """A full-page screenshot at the page's current size, as an artefact."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


def shoot_both(page: Page, name: str) -> None:
    """The page at desktop and at phone size."""
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        shoot(page, f"{name}-{label}")
    page.set_viewport_size(DESKTOP)


def tree_state(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` with its modification time and size."""
    return {
        str(path.relative_to(folder)): (path.stat().st_mtime_ns, path.stat().st_size)
        for path in folder.rglob("*")
        if path.is_file()
    }


def version(page: Page) -> int:
    return int(page.get_attribute("#match-status", "data-version") or -1)


def is_over(page: Page) -> bool:
    return page.locator("#match-result:not([hidden])").count() > 0


def play_one_move(page: Page) -> str:
    """Pass (bito) when allowed, else cover the first open card, else lead, else take: by mouse
    on the felt, and by the P and T keys."""
    legal: list[dict[str, object]] = json.loads(page.get_attribute("#move-form", "data-legal") or "[]")
    actions = [str(move["action"]) for move in legal]
    if "pass" in actions:
        page.keyboard.press("p")
        return "pass"
    covers = [a for a in actions if a.startswith("cover ")]
    if covers:
        card, target = covers[0].split()[1].split(">")
        page.click(f".hand__card[data-card='{card}']")
        page.click(f".pair__target[data-target='{target}']")
        return covers[0]
    attacks = [a for a in actions if a.startswith("attack ") and len(a.split()) == 2]
    if attacks:
        page.click(f".hand__card[data-card='{attacks[0].split()[1]}']")
        page.click(f"#move-choice [data-action='{attacks[0]}']")
        return attacks[0]
    page.keyboard.press("t")
    return "take"


def test_a_newcomer_plays_bots_to_the_end_and_replays_it(server: str) -> None:
    docs_before = tree_state(DOCS)
    started = time.time()
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            player = browser.new_context(viewport=DESKTOP).new_page()
            watcher = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
            errors: list[str] = []
            for page in (player, watcher):
                page.on("pageerror", lambda error: errors.append(str(error)))

            player.goto(server)
            shoot_both(player, "home")

            # Sign up.
            player.goto(f"{server}/accounts/signup/")
            player.fill("input[name=email]", "newcomer@example.com")
            player.fill("input[name=display_name]", "Newcomer")
            player.fill("input[name=password1]", PASSWORD)
            player.fill("input[name=password2]", PASSWORD)
            shoot_both(player, "signup")
            player.click("main form button[type=submit]")
            player.wait_for_url(lambda url: "/accounts/signup/" not in url)

            # A table of two with a bot.
            player.goto(f"{server}/play/new/")
            shoot_both(player, "table-create")
            player.select_option("select[name=deck]", "24")
            player.select_option("select[name=turn_seconds]", "60")
            player.click("form.table-form button[type=submit]")
            player.wait_for_url(re.compile(r"/play/table/\d+/$"))
            shoot_both(player, "table")
            player.select_option("select[name=level]", "easy")
            player.click("#table-seats form:has(select[name=level]) button[type=submit]")
            wait_for_path(player, re.compile(r"/play/match/\d+/$"))
            player.wait_for_selector(".hand__card", timeout=15_000)
            match_url = player.url

            # A spectator on a phone.
            watcher.goto(f"{server}/accounts/login/")
            watcher.fill("input[name=login]", "watcher@example.com")
            watcher.fill("input[name=password]", PASSWORD)
            watcher.click("main form button[type=submit]")
            watcher.wait_for_url(lambda url: "/accounts/login/" not in url)
            watcher.goto(match_url)
            watcher.wait_for_selector("#match-status")
            assert watcher.locator(".hand__card").count() == 0
            assert "watching" in watcher.inner_text("#match-hand")
            watched_from = version(watcher)

            moves: list[str] = []
            deadline = time.monotonic() + 240
            while not is_over(player):
                assert time.monotonic() < deadline and len(moves) < MOVE_LIMIT, "the match did not end"
                if player.get_attribute("#match-status", "data-your-move") != "1":
                    player.wait_for_timeout(50)
                    continue
                before = version(player)
                moves.append(play_one_move(player))
                if len(moves) == 4:
                    shoot(player, "match-desktop")
                    shoot(watcher, "match-spectator-phone")
                while version(player) <= before and not is_over(player):
                    assert time.monotonic() < deadline, "a move never came back"
                    player.wait_for_timeout(20)
            assert moves
            watcher.wait_for_selector("#match-result:not([hidden])", timeout=15_000)
            assert version(watcher) > watched_from  # the spectator's page followed live
            shoot_both(player, "match-over")
            assert player.inner_text("#match-error") == ""

            # The history and the replay.
            player.goto(f"{server}/history/")
            shoot_both(player, "history")
            match_id = match_url.rstrip("/").rsplit("/", 1)[1]
            player.click(f"a[href='/matches/{match_id}/']")
            player.wait_for_url(re.compile(rf"/matches/{match_id}/"))
            player.wait_for_selector("#replay")
            first = int(player.get_attribute("#replay", "data-step") or 0)
            for _ in range(3):
                player.click("#replay [data-replay='next']")
                player.wait_for_timeout(300)
            assert int(player.get_attribute("#replay", "data-step") or 0) > first
            shoot_both(player, "replay")

            for path, name in (
                ("/play/", "lobby"),
                ("/leaderboard/", "leaderboard"),
                ("/tournaments/", "tournaments"),
            ):
                response = player.goto(f"{server}{path}")
                assert response is not None and response.status < 500, path
                shoot_both(player, name)
            assert not errors, errors
        finally:
            browser.close()
    for name in ("match-desktop", "match-spectator-phone", "replay-desktop", "table-phone"):
        assert (ARTEFACTS / f"{name}.png").stat().st_mtime >= started, name  # taken by this run
    assert tree_state(DOCS) == docs_before, "the test wrote under docs/"
