"""Table chat in Chromium through the real site (daphne, websockets, htmx): Alice reads the match
in English, Bob in Russian; a quick phrase Alice clicks reaches Bob in his language, a free-text
line Bob types reaches Alice, escaped; each page is photographed at 1280x800 and 390x844 into
build/screenshots/ and the chat panel is measured to sit inside the viewport's width."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .chromium import ROOT
from .site import served_site

playwright = pytest.importorskip("playwright.sync_api")
if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "correct-horse-battery-9"
SHOTS = ROOT / "build" / "screenshots"

SETUP = f"""
from accounts.models import User
from games.engine import Rules
from play import services
users = [User.objects.create_user(username=n, email=n + "@example.com", password={PASSWORD!r},
                                  display_name=n.capitalize(), chat_free_text=True) for n in ("alice", "bob")]
table = services.table_create(creator=users[0], rules=Rules(), turn_seconds=600)
services.table_join(table_id=table.pk, user=users[1])
print(table.matches.get().pk)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    with served_site(tmp_path_factory.mktemp("chat"), SETUP) as served:
        yield served.url, int(served.setup_output.strip().splitlines()[-1])


def opened(browser: Browser, base: str, name: str, language: str, size: tuple[int, int]) -> Page:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=language)
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", f"{name}@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["wide", "phone"])
def test_two_players_chat_at_the_table_each_in_their_language(
    browser: Browser, site: tuple[str, int], size: tuple[int, int]
) -> None:
    base, match_id = site
    alice = opened(browser, base, "alice", "en", size)
    bob = opened(browser, base, "bob", "ru", size)
    for page in (alice, bob):
        page.goto(f"{base}/play/match/{match_id}/")
        page.wait_for_selector(".chat__quick-button")
    alice.click('.chat__quick-button[data-phrase="gl"]')
    bob.wait_for_selector('#chat-lines .chat__line:has-text("Удачи!")')
    alice.wait_for_selector('#chat-lines .chat__line:has-text("Good luck!")')
    bob.fill("#chat-say input[name=text]", "<i>привет</i> & hi")
    bob.press("#chat-say input[name=text]", "Enter")
    alice.wait_for_selector('#chat-lines .chat__line:has-text("<i>привет</i> & hi")')
    assert alice.locator("#chat-lines i").count() == 0  # shown as text, never as markup
    assert bob.input_value("#chat-say input[name=text]") == ""
    # A report button on every line of the others (Bob's lines here), never on one's own.
    # Counted in one go in the page: a line may arrive between two reads from here.
    others, reports = alice.evaluate(
        "() => [document.querySelectorAll('#chat-lines .chat__line:not(.chat__line--mine)').length,"
        " document.querySelectorAll('#chat-lines .chat__report').length]"
    )
    assert others >= 1 and reports == others
    assert alice.locator("#chat-lines .chat__line--mine .chat__report").count() == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    tag = "wide" if size[0] > 600 else "phone"
    for page, language in ((alice, "en"), (bob, "ru")):
        box = page.locator("#chat-box").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 0.5
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        page.locator("#chat-box").scroll_into_view_if_needed()
        page.screenshot(path=str(Path(SHOTS) / f"chat-{tag}-{language}.png"))
    for page in (alice, bob):
        page.context.close()
