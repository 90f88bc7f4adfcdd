"""The pages whatever users type, in Chromium, at phone (390x844) and desktop (1280x800) size, in
English and Russian (issue #17, items 11, 12, 13 and 17).

The site is filled with the longest unbroken names the forms accept: 32-character display names
and 80-character tournament names without a space. Every main page must then be no wider than the
viewport; the bracket's game links must not cover a name; the rating chart must draw its points
inside its box in Russian too (no "14,0" coordinates); times must follow the browser's time zone;
and every option link of the create-table form must land on an anchor of the rules page in both
languages. Full-page screenshots of every page go to ``build/screenshots/layout-*.png``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import DESKTOP, PHONE, ROOT, signed_in, visit
from .site import served_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

playwright = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTEFACTS = ROOT / "build" / "screenshots"
SIZES = {"phone": PHONE, "desktop": DESKTOP}
LONG_NAME = "WMWMWMWMWMWMWMWMWMWMWMWMWMWMWMWM"  # 32, the longest display name
LONG_RUSSIAN = "ЖЩЖЩЖЩЖЩЖЩЖЩЖЩЖЩЖЩЖЩЖЩЖЩЖЩЖЩЖЩ"
LONG_TOURNAMENT = "Чемпионат" + "W" * 71  # 80, the longest tournament name
ZONE = "Asia/Tehran"  # +03:30: a zone no whole-hour mistake can fake (and a name ICU keeps)

#: A player with the longest name: a rated history against another one (the profile's chart), a
#: finished match and a live one, an open table, and tournaments of such names that are upcoming,
#: running (a bracket with a live game) and finished. Prints the ids and a session key.
SETUP = f"""
import json, random
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games.engine import Rules
from play import selectors, services
from ratings.services import match_rate
from tests.ratings.builders import finished_match
from tests.tournaments.support import tournament_settings, play_running_games
from tournaments import services as cups

def person(name, username):
    return User.objects.create_user(username=username, email=username + "@example.com", password=None,
                                    display_name=name)

me = person({LONG_NAME!r}, "long")
other = person({LONG_RUSSIAN!r}, "longer")
rng = random.Random(3)
finished = None
for n in range(6):
    two = Rules.for_variant("podkidnoy", players=2)
    finished = finished_match([me, other], two, seed=f"l-{{n}}", rng=rng)
    match_rate(finished.pk)
live_table = services.table_create(creator=me, rules=Rules(players=3), turn_seconds=600)
services.seats_fill_with_bots(table_id=live_table.pk, user=me, level="easy")
live = selectors.table_current_match(table_id=live_table.pk)
table = services.table_create(creator=other, rules=Rules(players=4), turn_seconds=600)
services.table_join(table_id=table.pk, user=me, position=1)

def cup(suffix, bots, start=True, **overrides):
    made = cups.tournament_create(organiser=other, settings=tournament_settings(
        name={LONG_TOURNAMENT!r}[: 80 - len(suffix)] + suffix,
        starts_at=timezone.now() + timedelta(days=2), **overrides))
    cups.registration_open(tournament_id=made.pk, user=other)
    cups.bots_add(tournament_id=made.pk, user=other, level="easy", count=bots)
    cups.entry_register(tournament_id=made.pk, user=me)
    if start:
        cups.tournament_start(tournament_id=made.pk, user=other)
    return made

arena = cups.tournament_create(organiser=other, settings=tournament_settings(
    name={LONG_TOURNAMENT!r}[:79] + "A", format="arena", duration_minutes=60, berserk=True,
    starts_at=timezone.now() + timedelta(days=2)))
cups.registration_open(tournament_id=arena.pk, user=other)
cups.bots_add(tournament_id=arena.pk, user=other, level="easy", count=2)
cups.entry_register(tournament_id=arena.pk, user=other)
cups.tournament_start(tournament_id=arena.pk, user=other)
upcoming = cup("U", 2, start=False)
running = cup("R", 3)
done = play_running_games(cup("F", 3))
session_key = signed_in_session(me)
print(json.dumps({{"session": session_key, "user": me.pk, "other": other.pk,
                  "finished": finished.pk, "live": live.pk, "table": table.pk,
                  "upcoming": upcoming.pk, "running": running.pk, "done": done.pk, "arena": arena.pk,
                  "started": done.started_at.isoformat()}}))
"""

#: Every main page, by a short name for the screenshots.
PAGES = {
    "home": "/",
    "lobby": "/play/",
    "table": "/play/table/{table}/",
    "match": "/play/match/{live}/",
    "table-create": "/play/new/",
    "history": "/history/",
    "record": "/matches/{finished}/",
    "leaderboard": "/leaderboard/?pool=podkidnoy:2",
    "profile": "/players/{user}/",
    "profile-other": "/players/{other}/",
    "tournaments": "/tournaments/",
    "tournament-upcoming": "/tournaments/{upcoming}/",
    "tournament-running": "/tournaments/{running}/",
    "tournament-finished": "/tournaments/{done}/",
    "tournament-form": "/tournaments/new/",
    "arena-running": "/tournaments/{arena}/",
    "rules": "/rules/",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with served_site(tmp_path_factory.mktemp("layout"), SETUP) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


def overflow(page: Page) -> dict[str, Any]:
    """The page's width against the viewport's, and the elements that stick out on the right."""
    measured: dict[str, Any] = page.evaluate(
        """() => {
            const width = window.innerWidth;
            const out = [];
            const clipped = (element) => {
                for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
                    if (getComputedStyle(up).overflowX !== "visible") return true;
                }
                return false;
            };
            for (const element of document.querySelectorAll("body *")) {
                if (clipped(element)) continue;
                const box = element.getBoundingClientRect();
                if (box.width && box.right > width + 0.5) {
                    const name = `${element.tagName.toLowerCase()}.${element.className}`;
                    out.push(`${name} ${Math.round(box.right)}`);
                }
            }
            return {scroll: document.documentElement.scrollWidth, inner: width, out: out.slice(0, 8)};
        }"""
    )
    return measured


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_page_is_wider_than_the_screen_whatever_the_names(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: str
) -> None:
    base, ids = site
    context = signed_in(browser, base, ids, language, SIZES[size])
    page = context.new_page()
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    wide = {}
    for name, path in PAGES.items():
        visit(page, base + path.format(**ids))
        assert page.locator("html").get_attribute("lang") == language
        if name == "match":
            page.wait_for_selector("#match-status")
        if name in ("lobby", "table", "history", "record", "profile", "tournament-running", "arena-running"):
            assert page.get_by_text(LONG_NAME).count() + page.get_by_text(LONG_RUSSIAN).count() > 0, name
        measured = overflow(page)
        if measured["scroll"] > measured["inner"]:
            wide[name] = measured
        page.screenshot(path=str(ARTEFACTS / f"layout-{name}-{language}-{size}.png"), full_page=True)
    context.close()
    assert wide == {}


Rect = tuple[float, float, float, float]


def rect(box: Any) -> Rect:
    """A Playwright bounding box as (left, top, right, bottom)."""
    assert box is not None
    return box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]


def inside(inner: Rect, outer: Rect) -> bool:
    return (
        outer[0] - 0.5 <= inner[0]
        and outer[1] - 0.5 <= inner[1]
        and inner[2] <= outer[2] + 0.5
        and inner[3] <= outer[3] + 0.5
    )


def overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_bracket_links_cover_no_name(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: str
) -> None:
    base, ids = site
    context = signed_in(browser, base, ids, language, SIZES[size])
    page = context.new_page()
    for key in ("running", "done"):
        visit(page, f"{base}/tournaments/{ids[key]}/")
        # One snapshot of every slot: the running bracket is redrawn whenever a bot's game ends.
        slots = page.evaluate(
            """() => [...document.querySelectorAll(".bracket-slot")].map(slot => {
                const box = e => {
                    const r = e.getBoundingClientRect();
                    return [r.left, r.top, r.right, r.bottom];
                };
                const names = [...slot.querySelectorAll(".bracket-slot__player")];
                return {
                    frame: box(slot),
                    names: names.map(box),
                    titles: names.map(n => [n.title, n.textContent.trim()]),
                    links: [...slot.querySelectorAll(".bracket-slot__link, .bracket-slot__note")].map(box),
                };
            })"""
        )
        assert len(slots) >= 3
        links = 0
        for index, slot in enumerate(slots):
            for box in slot["links"]:
                links += 1
                assert inside(box, slot["frame"]), (key, index)
                assert not any(overlaps(box, name) for name in slot["names"]), (key, index)
            for title, text in slot["titles"]:
                assert title == text
        assert links >= 1, key
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_rating_chart_draws_its_points(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: str
) -> None:
    base, ids = site
    context = signed_in(browser, base, ids, language, SIZES[size])
    page = context.new_page()
    visit(page, f"{base}/players/{ids['user']}/")
    chart = page.locator(".rating-chart svg").first
    frame = rect(chart.bounding_box())
    assert frame[2] - frame[0] > 200 and frame[2] <= SIZES[size]["width"]
    dots = chart.locator("circle")
    assert dots.count() == 6
    for index in range(dots.count()):
        dot = dots.nth(index)
        for attribute in ("cx", "cy"):
            float(dot.get_attribute(attribute) or "")
        box = rect(dot.bounding_box())
        assert box[2] > box[0] and inside(box, frame), index
    grid = chart.locator("line.rating-chart__grid")
    tops = sorted({(line.bounding_box() or {"y": -1})["y"] for line in grid.all()})
    assert len(tops) == 3, "three grid lines at three heights"
    for attribute in ("y1", "y2", "x2"):
        for line in grid.all():
            float(line.get_attribute(attribute) or "")
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_times_follow_the_browsers_time_zone(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str
) -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    base, ids = site
    context = signed_in(browser, base, ids, language, DESKTOP, timezone_id=ZONE)
    page = context.new_page()
    visit(page, base + "/")  # the first page tells the server the zone
    visit(page, f"{base}/tournaments/{ids['done']}/")
    assert page.locator("html").get_attribute("data-time-zone") == ZONE
    started = datetime.fromisoformat(ids["started"]).astimezone(ZoneInfo(ZONE))
    shown = page.locator(".facts time").first
    moment = shown.get_attribute("datetime") or ""
    assert datetime.fromisoformat(moment) == started and moment.endswith("+03:30")
    assert started.strftime("%H:%M") in shown.inner_text()
    assert ZONE in page.locator(".tournament-zone").inner_text()
    assert page.get_by_text(re.compile("Before the start|До начала")).count() == 0
    visit(page, f"{base}/tournaments/new/")
    assert ZONE in page.locator("#id_starts_at").locator("xpath=..").inner_text()
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_option_links_to_its_place_in_the_rules(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str
) -> None:
    base, ids = site
    context = signed_in(browser, base, ids, language, PHONE)
    page = context.new_page()
    visit(page, f"{base}/play/new/")
    hrefs = [link.get_attribute("href") or "" for link in page.locator(".table-form a.field__rule").all()]
    assert len(hrefs) >= 13
    visit(page, f"{base}/rules/")
    assert page.locator("h1").count() == 1
    for href in hrefs:
        path, anchor = href.split("#")
        assert path == "/rules/"
        target = page.locator(f"[id='{anchor}']")
        assert target.count() == 1, href
    # Following one lands on it, in view.
    visit(page, f"{base}/play/new/")
    page.locator("a.field__rule[href$='#option-throw_in']").click()
    page.wait_for_url(re.compile(r"/rules/#option-throw_in$"))
    row = page.locator("#option-throw_in").bounding_box()
    assert row is not None and 0 <= row["y"] < PHONE["height"]
    context.close()
