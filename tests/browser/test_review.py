"""A game review in Chromium: Anna asks for the review of her finished game, watches its
progress, and the page reloads with the labels on the replay's steps, the better move on hover
(a title) and on tap (a disclosure), and the chart; the history list shows her accuracy. In
English and Russian, at 1280x800 and 390x844; screenshots go to
``build/screenshots/review-*.png``.

The site is ``manage.py serve`` in the embedded mode (its one worker runs the review's steps),
with a small search (``HISTORY_REVIEW_ITERATIONS``) so the review takes seconds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, ROOT
from .site import served_site
from .test_accessibility import violations

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

playwright = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTEFACTS = ROOT / "build" / "screenshots"

#: A finished public duel of Anna and Olga, played at random (so it has mistakes to find), and
#: Anna's session key.
SETUP = """
import json, random
from accounts.models import User
from games.engine import Rules
from tests.ratings.builders import finished_match

anna = User.objects.create_user(username="anna", email="anna@example.com", password=None, display_name="Anna")
olga = User.objects.create_user(username="olga", email="olga@example.com", password=None, display_name="Olga")
match = finished_match([anna, olga], Rules.for_variant("podkidnoy", players=2), seed="browser-review",
                       rng=random.Random(3), rated=False)
session_key = signed_in_session(anna)
print(json.dumps({"session": session_key, "match": match.pk}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with served_site(tmp_path_factory.mktemp("review"), SETUP, {"HISTORY_REVIEW_ITERATIONS": "60"}) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with playwright.sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def anna(browser: Browser, base: str, session: str, language: str) -> Page:
    context = browser.new_context(viewport=DESKTOP, locale=language)
    context.add_cookies(
        [
            {"name": "django_language", "value": language, "url": base},
            {"name": "sessionid", "value": session, "url": base},
        ]
    )
    return context.new_page()


def measure_chart(page: Page) -> None:
    """At both sizes: the chart fits the page's width, and its dots run left to right inside it."""
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        chart = page.locator("svg.review-chart").bounding_box()
        assert chart is not None and chart["width"] > 200 and chart["height"] > 60
        assert chart["x"] >= 0 and chart["x"] + chart["width"] <= size["width"] + 0.5
        page_width = page.evaluate("document.documentElement.scrollWidth")
        assert page_width <= size["width"], f"the page scrolls sideways at {size}"
        xs = [
            box["x"] for dot in page.locator("circle.review-chart__dot").all() if (box := dot.bounding_box())
        ]
        assert xs == sorted(xs) and xs[0] >= chart["x"] - 5 and xs[-1] <= chart["x"] + chart["width"]
    page.set_viewport_size(DESKTOP)


def shoot(page: Page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        page.screenshot(path=str(ARTEFACTS / f"review-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_anna_asks_for_a_review_and_sees_the_labels_the_better_moves_and_the_chart(
    site: tuple[str, dict[str, Any]], browser: Browser
) -> None:
    base, ids = site
    page = anna(browser, base, ids["session"], "en")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    url = f"{base}/matches/{ids['match']}/"
    page.goto(url)
    page.get_by_role("button", name="Review my play").click()
    page.wait_for_selector("#reviews progress, #reviews .review[data-status='done']")
    # The worker finishes the steps; the last poll reloads the page with the labels.
    page.wait_for_selector(".review[data-status='done'] svg.review-chart", timeout=120_000)
    data = page.request.get(f"{url}export.json").json()
    decisions = data["reviews"][0]["decisions"]
    assert page.locator("circle.review-chart__dot").count() == len(decisions) > 0
    marked = [d for d in decisions if d["label"] != "good"]
    assert page.locator(".replay-log .verdict").count() == len(marked)
    accuracy = data["reviews"][0]["accuracy"]
    assert page.locator(f".review__accuracy[data-accuracy='{accuracy}']").is_visible()
    measure_chart(page)
    found = violations(axe_playwright.Axe(), page, "reviewed match")
    assert found == [], "\n".join(found)

    worst = max(decisions, key=lambda d: d["p_best"] - d["p_played"])
    page.goto(f"{url}?step={worst['seq']}")
    verdict = page.locator(".replay__verdict")
    assert verdict.get_attribute("data-label") == worst["label"]
    if worst["label"] != "good" and worst["best"] != worst["played"]:
        summary = verdict.locator("summary")
        assert (summary.get_attribute("title") or "").startswith("Better: ")
        summary.hover()
        summary.click()  # a tap opens the better move
        better = verdict.locator(".verdict__better p")
        assert better.is_visible() and better.inner_text().startswith("Better: ")
    # A replay step by htmx keeps its label.
    page.locator("[data-replay='prev']").click()
    page.wait_for_selector(f"#replay[data-step='{worst['seq'] - 1}']")
    page.locator("[data-replay='next']").click()
    page.wait_for_selector(f"#replay[data-step='{worst['seq']}']")
    assert page.locator(".replay__verdict").get_attribute("data-label") == worst["label"]
    shoot(page, "match-en")

    page.goto(f"{base}/history/")
    cell = page.locator("td.accuracy a")
    assert cell.count() == 1 and cell.inner_text() == f"{accuracy}%"
    assert violations(axe_playwright.Axe(), page, "history") == []
    shoot(page, "history-en")
    assert errors == []
    page.context.close()


def test_the_review_in_russian(site: tuple[str, dict[str, Any]], browser: Browser) -> None:
    base, ids = site
    page = anna(browser, base, ids["session"], "ru")
    url = f"{base}/matches/{ids['match']}/"
    page.goto(url)
    page.wait_for_selector(".review[data-status='done'] svg.review-chart", timeout=120_000)
    assert page.locator("html").get_attribute("lang") == "ru"
    text = page.inner_text("#reviews")
    assert "Разбор сильным ботом" in text and "Точность" in text and "Accuracy" not in text
    for dot in page.locator("circle.review-chart__dot").all()[:5]:
        float(dot.get_attribute("cx") or "x")  # a machine's number: "12.5", never "12,5"
    measure_chart(page)
    assert violations(axe_playwright.Axe(), page, "reviewed match, ru") == []
    decisions = page.request.get(f"{url}export.json").json()["reviews"][0]["decisions"]
    worst = max(decisions, key=lambda d: d["p_best"] - d["p_played"])
    page.goto(f"{url}?step={worst['seq']}")
    words = {"good": "хорошо", "inaccuracy": "неточность", "mistake": "ошибка", "blunder": "зевок"}
    assert page.locator(".replay__verdict .verdict").inner_text() == words[worst["label"]]
    if worst["label"] != "good" and worst["best"] != worst["played"]:
        page.locator(".replay__verdict summary").click()
        assert page.locator(".verdict__better p").inner_text().startswith("Лучше: ")
    shoot(page, "match-ru")
    page.goto(f"{base}/history/")
    assert "Точность" in page.inner_text("main")
    shoot(page, "history-ru")
    page.context.close()


@pytest.mark.parametrize(("language", "size"), [("en", DESKTOP), ("ru", PHONE)], ids=["en", "ru"])
def test_each_replay_step_copies_its_position_and_links_to_itself(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: ViewportSize
) -> None:
    """Anna copies the position of a step of her finished game for a bug report, steps on, copies
    again, and opens the step's link: the same step, the same position."""
    base, ids = site
    page = anna(browser, base, ids["session"], language)
    page.set_viewport_size(size)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    record = f"/matches/{ids['match']}/"
    page.goto(f"{base}{record}?step=3")
    copy = page.locator("#replay button[data-copy]")
    assert copy.inner_text() == {"en": "Copy position", "ru": "Скопировать позицию"}[language]
    box = copy.bounding_box()
    assert box is not None and box["x"] + box["width"] <= size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    copied = []
    for _ in range(2):
        copy.click()
        page.wait_for_function("() => document.querySelector('#replay .replay__copied').textContent !== ''")
        text = page.evaluate("navigator.clipboard.readText()")
        assert text == page.input_value("#replay-position") and text.startswith("podkidnoy ")
        copied.append(text)
        step = page.get_attribute("#replay", "data-step")
        link = page.get_attribute("#replay a[data-replay='link']", "href")
        assert link == f"{record}?step={step}"
        page.click("#replay [data-replay='next']")
        page.wait_for_function("s => document.querySelector('#replay').dataset.step !== s", arg=step)
    assert copied[0] != copied[1]
    page.goto(f"{base}{record}?step=4")  # the link of the second copy
    assert page.input_value("#replay-position") == copied[1]
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("#replay").screenshot(path=str(ARTEFACTS / f"replay-position-{language}.png"))
    page.context.close()
