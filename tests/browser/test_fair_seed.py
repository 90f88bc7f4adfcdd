"""The players' part of a fair deal in Chromium (docs/rules.md, "Fair deals"): the table page
shows the next deal's commitment, Alice's page sends her random value by itself, Bob's value goes
with the form that seats him, and the match is dealt from both: the values the browsers kept in
localStorage are the ones the match recorded, in seat order. Alice reads English at 1280x800,
Bob Russian at 390x844. A table the server seats itself (the one-click bot game) waits for the
value of the player's open page: held back a moment, the table page says it is dealing, and the
value that then comes is in the match. Screenshots under ``build/screenshots/fair-dealing-*.png``.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .chromium import CHROMIUM, CHROMIUM_ARGS, ROOT, wait_for_path
from .site import served_site

playwright = pytest.importorskip("playwright.sync_api")
if TYPE_CHECKING:
    from playwright.sync_api import Page, Route, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "correct-horse-battery-9"
ARTEFACTS = ROOT / "build" / "screenshots"

SETUP_USERS = f"""
from accounts.models import User
for name in ("alice", "bob"):
    User.objects.create_user(username=name, email=name + "@example.com",
                             password={PASSWORD!r}, display_name=name.capitalize())
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("fairseed")
    # The held value of the server-seated deal comes in well before the wait ends, however slow
    # the machine (the wait itself is the service tests' to measure).
    with served_site(folder, SETUP_USERS, {"GAMES_DEAL_WAIT_SECONDS": "60"}) as served:
        yield served.url, folder / "db.sqlite3"


def log_in(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", f"{name}@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def kept_value(page: Page, commitment: str) -> str:
    return str(page.evaluate("key => localStorage.getItem(key)", f"durak-seed:{commitment}"))


def test_both_browsers_values_deal_the_match(site: tuple[str, Path]) -> None:
    base, database = site
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            alice = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en").new_page()
            bob = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru").new_page()
            errors: list[str] = []
            for page in (alice, bob):
                page.on("pageerror", lambda error: errors.append(str(error)))

            log_in(alice, base, "alice")
            alice.goto(f"{base}/play/new/")
            with alice.expect_response(lambda r: r.url.endswith("/seed/")) as sent:
                alice.click("form.table-form button[type=submit]")
            assert sent.value.status == 200 and json.loads(sent.value.body()) == {"ok": True}
            # the page may already be redrawn without the mark to send (the value is in): the code keeps it
            commitment = alice.get_attribute(".table-commitment .hash", "data-commitment") or ""
            assert re.fullmatch(r"[0-9a-f]{64}", commitment)
            assert alice.locator(".table-commitment").is_visible()
            assert "Next deal's commitment" in alice.inner_text(".table-commitment")

            log_in(bob, base, "bob")
            bob.goto(alice.url)
            assert "Обязательство следующей сдачи" in bob.inner_text(".table-commitment")
            assert bob.locator(".table-commitment").is_visible()
            bob.click("#table-seats form button[type=submit]")
            for page in (alice, bob):
                wait_for_path(page, re.compile(r"/play/match/\d+/$"))
            values = [kept_value(alice, commitment), kept_value(bob, commitment)]
            assert all(re.fullmatch(r"[0-9a-f]{32}", v) for v in values) and values[0] != values[1]
            match_id = int(alice.url.rstrip("/").rsplit("/", 1)[1])
            with sqlite3.connect(database) as db:
                query = "SELECT contributions FROM games_match WHERE id = ?"
                (stored,) = db.execute(query, (match_id,)).fetchone()
            assert [entry["value"] for entry in json.loads(stored)] == values
            for page in (alice, bob):  # nobody's page shows a value while the match runs
                assert values[0] not in page.content() and values[1] not in page.content()
            assert not errors, errors
        finally:
            browser.close()


def stored_contributions(database: Path, match_id: int) -> list[dict[str, object]]:
    with sqlite3.connect(database) as db:
        (stored,) = db.execute("SELECT contributions FROM games_match WHERE id = ?", (match_id,)).fetchone()
    return list(json.loads(stored))


@pytest.mark.parametrize(
    ("name", "language", "size", "words"),
    [
        ("alice", "en", {"width": 1280, "height": 800}, "Dealing"),
        ("bob", "ru", {"width": 390, "height": 844}, "Сдача"),
    ],
)
def test_a_table_the_server_seats_waits_for_the_value_of_the_players_page(
    site: tuple[str, Path], name: str, language: str, size: ViewportSize, words: str
) -> None:
    base, database = site
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=size, locale=language)
            context.add_cookies([{"name": "django_language", "value": language, "url": base}])
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            log_in(page, base, name)
            page.goto(f"{base}/play/")
            page.wait_for_timeout(500)  # her personal socket is open: the club knows she is here
            held: list[Route] = []
            page.route("**/seed/", lambda route: held.append(route))  # her values wait here
            page.click("form.bot-game button[type=submit]")
            page.wait_for_url(re.compile(r"/play/table/\d+/$"))
            page.wait_for_selector(".table-dealing")
            assert words in page.inner_text(".table-dealing")
            commitment = page.get_attribute(".table-commitment .hash", "data-commitment") or ""
            ARTEFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTEFACTS / f"fair-dealing-{language}.png"), full_page=True)
            for _ in range(50):  # the table page sends her value too (the lobby's went with it)
                if any("/play/table/" in (r.request.headers.get("referer") or "") for r in held):
                    break
                page.wait_for_timeout(50)
            page.unroute("**/seed/")
            for route in held:  # the lobby page's request went with the page; the table page's goes now
                with contextlib.suppress(playwright.Error):
                    route.continue_()
            wait_for_path(page, re.compile(r"/play/match/\d+/$"))
            match_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
            (mine, _bot) = stored_contributions(database, match_id)
            assert mine == {"seat": 0, "value": kept_value(page, commitment)}, mine
            assert not errors, errors
        finally:
            browser.close()
