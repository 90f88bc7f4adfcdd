"""Two newcomers meet through quick pairing, chat, finish a match and play again, in Chromium:
Ann (English, desktop) and Boris (Russian, phone) sign up, press the same "Play now" cell and are
taken to one match, dealt with both browsers' values; her "Good luck!" reaches him as «Удачи!»;
he resigns, both see the game over; she asks to play again, his page (wherever he is) gets the
offer, he accepts at the table, and both are taken to the next match. Screenshots under
``build/screenshots/people-*.png``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from .chromium import DESKTOP, PHONE, wait_for_path
from .site import served_site
from .test_pairing import CELL, newcomer, shoot

if TYPE_CHECKING:
    from playwright.sync_api import Browser

playwright = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.slow]
MATCH = re.compile(r"/play/match/(\d+)/$")
AGAIN = "form[action$='/again/'] button"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served_site(tmp_path_factory.mktemp("people"), "") as site:
        yield site.url


def test_two_newcomers_pair_chat_finish_and_play_again(browser: Browser, server: str) -> None:
    errors: list[str] = []
    ann = newcomer(browser, server, "Ann", "en", DESKTOP)
    boris = newcomer(browser, server, "Boris", "ru", PHONE)
    for page in (ann, boris):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(server)
        page.wait_for_selector(CELL)
    ann.click(CELL)
    ann.wait_for_selector("#pairing-grid .pairing-wait")
    boris.click(CELL)
    wait_for_path(boris, MATCH)
    wait_for_path(ann, MATCH)
    assert ann.url == boris.url
    first = MATCH.search(ann.url)
    assert first is not None

    # Chat: a quick phrase in her words reaches him in his.
    for page in (ann, boris):
        page.wait_for_selector(".chat__quick-button")
    ann.click('.chat__quick-button[data-phrase="gl"]')
    boris.wait_for_selector('#chat-lines .chat__line:has-text("Удачи!")')
    ann.wait_for_selector('#chat-lines .chat__line:has-text("Good luck!")')
    shoot(boris, "people-chat-ru-phone")

    # He resigns: the game is over for both.
    boris.click("form[action$='/resign/'] button")
    for page in (ann, boris):
        page.wait_for_selector(AGAIN, timeout=20_000)
    shoot(ann, "people-over-en-desktop")

    # The server seated them (docs/rules.md §"Fair deals" step 3): the deal still waited for both
    # browsers' values, and each one's value in the record is the one its browser kept.
    export = ann.request.get(f"{server}/matches/{first.group(1)}/export.json").json()
    values = [entry["value"] for entry in export["contributions"]]
    assert all(values) and not any(entry.get("missing") for entry in export["contributions"]), export
    for page in (ann, boris):
        kept = page.evaluate(f"() => localStorage.getItem('durak-seed:{export['commitment']}')")
        assert kept in values

    # She asks to play again; the offer reaches his page; he accepts: both go to the next match.
    ann.click(AGAIN)
    boris.wait_for_selector(".pairing-notice", timeout=15_000)
    shoot(boris, "people-rematch-offer-ru-phone", full_page=False)
    boris.click(AGAIN)
    for page in (ann, boris):
        page.wait_for_function(
            "first => { const m = location.pathname.match(/\\/play\\/match\\/(\\d+)\\//);"
            " return m && Number(m[1]) !== first; }",
            arg=int(first.group(1)),
            timeout=20_000,
        )
    assert ann.url == boris.url
    ann.wait_for_selector(".hand__card", timeout=15_000)
    assert errors == []
    for page in (ann, boris):
        page.context.close()
