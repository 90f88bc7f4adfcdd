"""An arena in Chromium: a player joins a running arena of bots and is taken to their game, goes
berserk from the game's banner, resigns, and is taken to their next game when it is dealt, while
a visitor on the arena's page sees the leaderboard change without reloading and follows a game
in play to watch it. Screenshots of the arena's page, of a game's banner and of a watched game at
1280x800 and 390x844, in English and Russian, go to ``build/screenshots/arena-*.png``.

The site is ``manage.py serve`` on its own SQLite file (the embedded Celery worker plays the bots
and runs the arena's pairing passes)."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, ROOT, wait_for_path
from .site import served_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

playwright = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTEFACTS = ROOT / "build" / "screenshots"
MATCH = re.compile(r"/play/match/(\d+)/$")

#: A running duel arena of three easy bots (two play, one waits alone) that allows berserk, and
#: Anna, who is not in it yet. Prints the ids and Anna's session key.
SETUP = """
import json
from accounts.models import User
from tests.tournaments.support import open_arena

olga = User.objects.create_user(username="olga", email="olga@example.com", password=None, display_name="Olga")
anna = User.objects.create_user(username="anna", email="anna@example.com", password=None, display_name="Anna")
from tournaments import services
arena = open_arena(olga, 3, name="Friday night arena", duration_minutes=60, turn_seconds=60)
services.tournament_start(tournament_id=arena.pk, user=olga)
session_key = signed_in_session(anna)
print(json.dumps({"session": session_key, "arena": arena.pk}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    # Anna resigns her first game at once: scored as a game (a loss), not as one left too early
    # (``games.early``, which tests/tournaments/test_arena_fair.py measures on its own).
    no_minimum = {"GAMES_RATED_MIN_MOVES": "0"}
    with served_site(tmp_path_factory.mktemp("arena"), SETUP, env=no_minimum) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with playwright.sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def shoot(page: Page, name: str) -> None:
    """Full-page screenshots at desktop and phone size."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        page.screenshot(path=str(ARTEFACTS / f"arena-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def anna_line(page: Page) -> Any:
    return page.locator('tr.arena-line[data-player="Anna"]')


def test_a_player_joins_plays_and_the_leaderboard_follows(
    site: tuple[str, dict[str, Any]], browser: Browser
) -> None:
    base, ids = site
    arena_url = f"{base}/tournaments/{ids['arena']}/"
    errors: list[str] = []

    visitor = browser.new_context(viewport=DESKTOP, locale="en").new_page()
    visitor.on("pageerror", lambda error: errors.append(str(error)))
    visitor.goto(arena_url)
    visitor.wait_for_selector(".arena-leaderboard")
    assert visitor.locator(".arena-countdown").count() == 1
    visitor.evaluate("window.arenaStayed = true")  # gone if the page reloads
    first_version = int(visitor.get_attribute("#tournament-live", "data-version") or 0)
    assert anna_line(visitor).count() == 0

    context = browser.new_context(viewport=DESKTOP, locale="en")
    context.add_cookies([{"name": "sessionid", "value": ids["session"], "url": base}])
    anna = context.new_page()
    anna.on("pageerror", lambda error: errors.append(str(error)))
    anna.on("dialog", lambda dialog: dialog.accept())
    anna.goto(arena_url)
    shoot(anna, "join-en")
    anna.click("text=Join the arena")
    wait_for_path(anna, MATCH, timeout=20)  # taken to the game the join dealt
    found = MATCH.search(anna.url)
    assert found is not None
    first_game = int(found.group(1))
    banner = anna.locator("#tournament-banner")
    assert "A game of the arena" in banner.inner_text()
    assert anna.locator("#tournament-banner .arena-countdown").count() == 1

    # The visitor's page learns of the new game without reloading.
    visitor.wait_for_function(
        "v => Number(document.querySelector('#tournament-live').dataset.version) > v", arg=first_version
    )
    anna_line(visitor).wait_for(timeout=10_000)
    assert visitor.evaluate("window.arenaStayed === true")

    anna.click("text=Berserk: halve my timer")
    wait_for_path(anna, re.compile(rf"/play/match/{first_game}/$"))
    anna.wait_for_selector("text=Your turn timer is halved in this game.")
    shoot(anna, "game-banner-en")
    anna.wait_for_selector("#match-status")
    anna.click("button:has-text('Resign')")

    # Her loss is on the leaderboard (one game, no points), still without a reload...
    games = anna_line(visitor).locator("td.num").nth(1)
    visitor.wait_for_function(
        "() => { const row = document.querySelector('tr.arena-line[data-player=\"Anna\"]');"
        " return row && row.querySelectorAll('td.num')[1].textContent.trim() === '1'; }",
        timeout=30_000,
    )
    assert games.inner_text().strip() == "1"
    assert anna_line(visitor).locator(".sheet-mark").count() == 1
    assert visitor.evaluate("window.arenaStayed === true")
    shoot(visitor, "leaderboard-en")

    # ...and Anna is taken to her next game when it is dealt (within the 20 s of patience).
    deadline_ms = 60_000
    anna.wait_for_function(
        "first => { const m = location.pathname.match(/\\/play\\/match\\/(\\d+)\\//);"
        " return m && Number(m[1]) !== first; }",
        arg=first_game,
        timeout=deadline_ms,
    )
    wait_for_path(anna, MATCH)
    anna.goto(arena_url)  # she has seen this game's page: the arena's page lets her stay
    anna.wait_for_selector("text=You are playing a game.")
    assert anna.url == arena_url
    shoot(anna, "player-en")
    assert errors == []


def test_the_arena_in_russian(site: tuple[str, dict[str, Any]], browser: Browser) -> None:
    base, ids = site
    arena_url = f"{base}/tournaments/{ids['arena']}/"
    visitor = browser.new_context(viewport=DESKTOP, locale="ru")
    visitor.add_cookies([{"name": "django_language", "value": "ru", "url": base}])
    page = visitor.new_page()
    page.goto(arena_url)
    page.wait_for_selector(".arena-leaderboard")
    assert page.locator("html").get_attribute("lang") == "ru"
    text = page.inner_text("main")
    assert "Турнирная таблица" in text and "осталось" in text and "Leaderboard" not in text
    # Anyone may watch a tournament's game: each one in play is linked, as a spectator's page.
    watch = page.locator(".arena-tables a")
    assert watch.count() >= 1 and watch.first.inner_text() == "смотреть"
    shoot(page, "leaderboard-ru")
    watch.first.click()
    wait_for_path(page, MATCH)
    page.wait_for_selector("#match-table")
    assert page.locator(".hand__card").count() == 0, "a spectator sees no hand"
    assert "Партия арены" in page.inner_text("#tournament-banner")
    shoot(page, "watching-ru")
    visitor.close()

    player = browser.new_context(viewport=DESKTOP, locale="ru")
    player.add_cookies(
        [
            {"name": "django_language", "value": "ru", "url": base},
            {"name": "sessionid", "value": ids["session"], "url": base},
        ]
    )
    anna = player.new_page()
    anna.goto(arena_url)
    # Her game from the English test may have ended meanwhile: the button comes back with the
    # next one, which the arena deals within its patience.
    for _ in range(12):
        if MATCH.search(anna.url) or anna.locator("text=К вашей партии").count():
            break
        anna.wait_for_timeout(5_000)
        anna.reload()
    if not MATCH.search(anna.url):
        with contextlib.suppress(playwright.Error):  # a game dealt after its wait for values
            anna.click("text=К вашей партии", timeout=10_000)  # takes her page there by itself
    wait_for_path(anna, MATCH)
    assert "Партия арены" in anna.inner_text("#tournament-banner")
    shoot(anna, "game-banner-ru")
    player.close()
