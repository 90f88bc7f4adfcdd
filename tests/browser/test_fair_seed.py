"""The players' part of a fair deal in Chromium (docs/rules.md, "Fair deals"): the table page
shows the next deal's commitment, Alice's page sends her random value by itself, Bob's value goes
with the form that seats him, and the match is dealt from both: the values the browsers kept in
localStorage are the ones the match recorded, in seat order. Alice reads English at 1280x800,
Bob Russian at 390x844.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .chromium import CHROMIUM, CHROMIUM_ARGS, wait_for_path
from .site import served_site

playwright = pytest.importorskip("playwright.sync_api")
if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "correct-horse-battery-9"

SETUP_USERS = f"""
from accounts.models import User
for name in ("alice", "bob"):
    User.objects.create_user(username=name, email=name + "@example.com",
                             password={PASSWORD!r}, display_name=name.capitalize())
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("fairseed")
    with served_site(folder, SETUP_USERS) as served:
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
