"""Getting into a game and the end of one, in Chromium at phone (390x844) and desktop (1280x800)
size, in English and Russian (issue #17, items 7, 8, 9, 15 and 16).

* one click on the home page's "Play now" deals a game against a bot and lands on its match with
  a hand of six cards; the lobby has the same form; neither page is wider than the screen;
* a signed-in player's home page lists their live game, their waiting table and tournament;
* a finished 2 vs 2 game shows its result panel: team badges on every seat and on the viewer's
  own, winners and losers named, the fool left holding cards, the rating changes;
* resigning a rated game against a bot shows the result panel without a reload, on the player's
  page and a watcher's, and the rating change arrives in it when the ratings task has run (the
  embedded Celery worker);
* seats show their rating in the table's pool, provisional ones with "?".

Screenshots go to ``build/screenshots/entry-*.png``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import DESKTOP, PHONE, ROOT, signed_in, visit
from .site import served_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FloatRect, Page, ViewportSize

playwright = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTEFACTS = ROOT / "build" / "screenshots"
SIZES = {"phone": PHONE, "desktop": DESKTOP}

#: Olga with a rated history against Ivan, a finished rated 2 vs 2 game whose fool was left alone
#: holding cards, a live game against a bot, a table waiting for players and a tournament open for
#: registration, and a rated table per language and size whose host waits for an opponent. Prints
#: the ids and a session key.
SETUP = """
import json, random
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games.engine import Rules
from play import selectors, services
from ratings.services import match_rate
from tests.ratings.builders import finished_match
from tests.tournaments.support import tournament_settings
from tournaments import services as cups

def person(name):
    return User.objects.create_user(username=name.lower(), email=name.lower() + "@example.com",
                                    password=None, display_name=name)

olga, ivan, anna, petr = person("Olga"), person("Ivan"), person("Anna"), person("Petr")
rng = random.Random(5)
for n in range(3):
    match_rate(finished_match([olga, ivan], Rules.for_variant("podkidnoy", players=2),
                              seed=f"h-{n}", rng=rng).pk)
team = None
for n in range(300):
    found = finished_match([olga, ivan, anna, petr], Rules.for_variant("podkidnoy", players=4, teams=True),
                           seed=f"t-{n}", rng=rng)
    if found.result["fool"] is not None and not found.result["forfeits"] and found.result["fool"] != 0:
        team = found
        break
match_rate(team.pk)
live = services.bot_game_start(
    user=olga, rules=Rules.for_variant("podkidnoy", players=3), level="easy").matches.get()
waiting = services.table_create(creator=olga, rules=Rules(players=4))
rated = {}
for key in ("en-phone", "en-desktop", "ru-phone", "ru-desktop"):
    host = person("Host" + key.replace("-", ""))
    rated[key] = services.table_create(
        creator=host, rules=Rules.for_variant("podkidnoy", players=2), rated=True).pk
cup = cups.tournament_create(organiser=ivan, settings=tournament_settings(
    name="Winter cup", starts_at=timezone.now() + timedelta(days=1)))
cups.registration_open(tournament_id=cup.pk, user=ivan)
cups.entry_register(tournament_id=cup.pk, user=olga)
session_key = signed_in_session(olga)
print(json.dumps({"session": session_key, "team": team.pk, "fool": team.result["fool"],
                  "live": live.pk, "waiting": waiting.pk, "cup": cup.pk, "rated": rated}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with served_site(tmp_path_factory.mktemp("entry"), SETUP) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


def to_the_match(page: Page, base: str) -> None:
    """Wait for the match page after filling a table with bots: the form's redirect and the table
    socket's news both lead there, and the navigation that loses the race is aborted."""
    for _attempt in range(3):
        try:
            page.wait_for_url(f"{base}/play/match/*/")
            return
        except playwright.Error:
            continue
    page.wait_for_url(f"{base}/play/match/*/")


def page_width(page: Page) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def inside(page: Page, selector: str, size: ViewportSize) -> FloatRect:
    """The box of ``selector``, asserted to be visible and within the viewport's width.

    A push may swap the element out between the wait and the measure (the socket's first frame
    redraws every fragment of a page just loaded), so the box is read again until one is found."""
    box = None
    for _ in range(20):
        page.locator(selector).first.wait_for(state="visible")
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            break
        time.sleep(0.1)
    assert box is not None, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, (selector, box)
    return box


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_one_click_on_the_home_page_plays_a_bot(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: str
) -> None:
    base, ids = site
    viewport = SIZES[size]
    context = signed_in(browser, base, ids, language, viewport)
    page = context.new_page()
    visit(page, f"{base}/")
    button = inside(page, "button[data-bot-game]", viewport)
    assert button["y"] + button["height"] <= viewport["height"], "the button is on the first screen"
    assert page_width(page) <= viewport["width"]
    page.screenshot(path=str(ARTEFACTS / f"entry-home-{language}-{size}.png"), full_page=True)
    page.click("button[data-bot-game]")
    page.wait_for_url(f"{base}/play/match/*/")
    page.wait_for_selector("#match-hand .hand__card")
    assert page.locator("#match-hand .hand__card").count() == 6
    assert page.locator("#match-players .seat").count() == 1
    assert page.locator("#match-players .seat-badge--bot").count() == 1
    # The lobby has the same form.
    visit(page, f"{base}/play/")
    inside(page, "form.bot-game button[data-bot-game]", viewport)
    assert page_width(page) <= viewport["width"]
    page.screenshot(path=str(ARTEFACTS / f"entry-lobby-{language}-{size}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_home_page_shows_the_players_games_tables_and_tournaments(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: str
) -> None:
    base, ids = site
    viewport = SIZES[size]
    context = signed_in(browser, base, ids, language, viewport)
    page = context.new_page()
    visit(page, f"{base}/")
    inside(page, f".home-games__live[data-match='{ids['live']}']", viewport)
    inside(page, f".home-games__table[data-table='{ids['waiting']}']", viewport)
    inside(page, f".home-tournaments [data-tournament='{ids['cup']}']", viewport)
    assert page.locator(".hero").count() == 0
    page.screenshot(path=str(ARTEFACTS / f"entry-home-player-{language}-{size}.png"), full_page=True)
    page.click(f".home-games__live[data-match='{ids['live']}'] a")
    page.wait_for_url(f"{base}/play/match/{ids['live']}/")
    # Every seat shows its rating in the table's pool (podkidnoy, 3-6), new to it: provisional.
    page.wait_for_selector("#match-players .rating-chip")
    assert page.locator("#match-players .rating-chip--provisional").count() == 2
    assert page.locator("#match-status .rating-chip--provisional").count() == 1
    assert (page.locator("#match-status .rating-chip").inner_text() or "").endswith("?")
    # Read in one go in the page: a push may redraw the seats between two reads from here.
    rights = page.evaluate(
        "[...document.querySelectorAll('#match-players .rating-chip')]"
        ".map(chip => chip.getBoundingClientRect().right)"
    )
    assert rights and all(right <= viewport["width"] for right in rights)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_finished_team_game_names_teams_winners_losers_the_fool_and_rating_changes(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: str
) -> None:
    base, ids = site
    viewport = SIZES[size]
    context = signed_in(browser, base, ids, language, viewport)
    page = context.new_page()
    visit(page, f"{base}/play/match/{ids['team']}/")
    panel = inside(page, "#match-result", viewport)
    assert panel["height"] > 0
    # Every other seat and the viewer's own carry a team badge; partners share it.
    assert page.locator("#match-players .seat [class*='seat-badge--team-']").count() == 3
    assert page.locator("#match-status [data-my-team='1']").count() == 1
    assert page.locator(".match-result__won").count() == 1
    assert page.locator(".match-result__lost").count() == 1
    fool = page.locator(f".match-result__player[data-seat='{ids['fool']}']")
    assert fool.locator(".seat-badge--attacker").count() == 1
    partner = page.locator(f".match-result__player[data-seat='{(ids['fool'] + 2) % 4}']")
    assert partner.locator(".seat-badge--attacker").count() == 0
    assert page.locator("#match-players .seat .seat-badge--attacker").count() <= 1
    assert page.locator(".match-result__delta").count() == 4
    assert page.locator(f".match-result a[href$='/matches/{ids['team']}/']").count() == 1
    assert page_width(page) <= viewport["width"]
    page.evaluate("document.getElementById('match-result').scrollIntoView()")  # redrawn by pushes meanwhile
    page.screenshot(path=str(ARTEFACTS / f"entry-team-result-{language}-{size}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_end_of_a_rated_game_and_its_verdict_arrive_without_a_reload(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: str
) -> None:
    """A rated game against a person (the club's bots play no rated game: the rated table offers
    none), resigned at once: the end and its verdict, "not rated: ended too early"
    (``docs/rules.md`` §7), come pushed to the player and to a watcher."""
    base, ids = site
    viewport = SIZES[size]
    context = signed_in(browser, base, ids, language, viewport)
    page = context.new_page()
    table = ids["rated"][f"{language}-{size}"]
    visit(page, f"{base}/play/table/{table}/")
    assert page.locator("form.bot-fill").count() == 0, "no bots at a rated table"
    page.click(f"form[action='/play/table/{table}/sit/'] button[type=submit]")
    to_the_match(page, base)
    page.wait_for_selector("#match-hand .hand__card")
    assert page.locator("#match-result").is_hidden()
    # A visitor watches the game: their page is never reloaded, so all it shows came pushed.
    watcher_context = browser.new_context(viewport=viewport, locale=language)
    watcher_context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    watcher = watcher_context.new_page()
    watcher_url = page.url
    visit(watcher, watcher_url)
    watcher.wait_for_selector("#match-hand .hand__note")
    time.sleep(0.5)  # its socket is open
    navigations: list[str] = []
    watcher.on("framenavigated", lambda frame: navigations.append(frame.url))
    # The player's own page is not reloaded by resigning either: its result comes pushed too.
    own_navigations: list[str] = []
    page.on("framenavigated", lambda frame: own_navigations.append(frame.url))
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("form[action$='/resign/'] button[type=submit]")
    watcher.wait_for_selector("#match-result .match-result__title", timeout=30_000)
    watcher.wait_for_selector("#match-result[data-ratings='unrated'] .match-result__unrated", timeout=60_000)
    assert not navigations, navigations
    inside(watcher, "#match-result", viewport)
    assert watcher.locator("#match-result a[href*='/matches/']").count() == 1
    assert watcher.locator(".match-result__delta").count() == 0
    watcher_context.close()
    # The player's own page: play again (with a person only: no bots offered), and the verdict.
    page.wait_for_selector("#match-result[data-ratings='unrated'] .match-result__unrated", timeout=60_000)
    assert not own_navigations, own_navigations
    inside(page, "#match-result", viewport)
    assert page.locator("#match-result form[action$='/again/'] button").count() == 1
    verdict = page.locator(".match-result__unrated").inner_text()
    assert verdict == (
        "Not rated: ended too early." if language == "en" else "Не рейтинговая: закончилась слишком рано."
    )
    page.evaluate("document.getElementById('match-result').scrollIntoView()")  # redrawn by pushes meanwhile
    page.screenshot(path=str(ARTEFACTS / f"entry-rated-end-{language}-{size}.png"), full_page=False)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_back_from_a_live_match_goes_to_the_lobby_not_to_the_match_again(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: str
) -> None:
    """Issue #17 item 18: the table page sends a seated player on to their running match, so
    Back from the match used to land on the match again."""
    base, ids = site
    context = signed_in(browser, base, ids, language, SIZES[size])
    page = context.new_page()
    visit(page, f"{base}/play/")
    page.click(".lobby-head a.button")
    page.wait_for_url(f"{base}/play/new/")
    page.click("form.table-form button[type=submit]")
    page.wait_for_url(f"{base}/play/table/*/")
    page.click("form[action$='/bots/'] button[type=submit]")
    to_the_match(page, base)
    match_url = page.url
    page.wait_for_selector("#match-hand .hand__card")
    page.go_back()
    # The table page, reached again, goes on to the lobby instead of to the match.
    page.wait_for_url(f"{base}/play/", timeout=15_000)
    time.sleep(1)  # and nothing sends it forward again
    assert page.url == f"{base}/play/", page.url
    page.wait_for_selector("#lobby-tables")
    # Forward goes back to the game.
    page.go_forward()
    page.wait_for_load_state()
    assert page.url in (match_url, f"{base}/play/"), page.url
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_first_game_hint_says_what_to_click_and_is_remembered_when_dismissed(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: str
) -> None:
    """Issue #17 item 17: a short first-game hint on the match page, dismissible and remembered."""
    base, ids = site
    viewport = SIZES[size]
    context = signed_in(browser, base, ids, language, viewport)
    page = context.new_page()
    visit(page, f"{base}/play/match/{ids['live']}/")
    hint = inside(page, "#first-hint", viewport)
    assert hint["height"] < viewport["height"] / 2
    assert page.locator("#first-hint kbd").all_inner_texts()[:2] == ["T", "P"]
    assert page.locator("#first-hint a[href='/rules/']").count() == 1
    assert page_width(page) <= viewport["width"]
    page.screenshot(path=str(ARTEFACTS / f"entry-hint-{language}-{size}.png"))
    page.click("[data-first-hint-close]")
    assert page.locator("#first-hint").is_hidden()
    visit(page, f"{base}/play/match/{ids['live']}/")
    page.wait_for_selector("#match-hand .hand__card")
    assert page.locator("#first-hint").is_hidden()
    # A spectator never sees it.
    other = browser.new_context(viewport=viewport, locale=language)
    watcher = other.new_page()
    visit(watcher, f"{base}/play/match/{ids['live']}/")
    assert watcher.locator("#first-hint").count() == 0
    other.close()
    context.close()
