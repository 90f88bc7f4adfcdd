"""The analysis board in Chromium (issue #40 §3) on the real site, at desktop and phone size, in
English and Russian: a position is set up in the editor by clicking card chips and typing, an
impossible one is refused in the page's language, a move is played on and undone, and the
strong search's evaluation (the embedded worker's ``reviews`` queue) fills in by htmx polling,
its moves best first. The page passes axe-core's checks at each stage.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .chromium import AXE_RULES, DESKTOP, PHONE
from .site import served_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

playwright = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RUNS = [("en", DESKTOP), ("ru", DESKTOP), ("en", PHONE), ("ru", PHONE)]

#: An account per run (each may ask for one evaluation at a time), with a session for the browser.
SETUP = """
import json
from accounts.models import User

sessions = []
for n in range(4):
    user = User.objects.create_user(username=f"an{n}", email=f"an{n}@example.com", password=None,
                                    display_name=f"An{n}")
    sessions.append(signed_in_session(user))
print(json.dumps(sessions))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    with served_site(
        tmp_path_factory.mktemp("analysis"), SETUP, {"HISTORY_REVIEW_ITERATIONS": "60"}
    ) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


def axe_found(page: Page) -> list[str]:
    return [v["id"] for v in axe_playwright.Axe().run(page, options=AXE_RULES).response["violations"]]


@pytest.mark.parametrize(("language", "size"), RUNS, ids=["en", "ru", "en-phone", "ru-phone"])
def test_set_up_play_on_undo_and_evaluate(
    site: tuple[str, list[str]], browser: Browser, language: str, size: ViewportSize, tmp_path: Path
) -> None:
    base, sessions = site
    run = RUNS.index((language, size))
    context = browser.new_context(viewport=size, locale=language)
    context.add_cookies(
        [
            {"name": "django_language", "value": language, "url": base},
            {"name": "sessionid", "value": sessions[run], "url": base},
        ]
    )
    page = context.new_page()
    label = f"{language}-{size['width']}"
    page.goto(base + "/analysis/")
    found = axe_found(page)
    page.screenshot(path=str(tmp_path / f"empty-{label}.png"), full_page=True)

    # An impossible set-up first: one hand only, refused with the engine's sentence translated.
    page.click("#id_hand0")
    for code in ("9S", "AC", "7H"):
        page.click(f'[data-card="{code}"]')
    assert page.input_value("#id_hand0") == "9S AC 7H"
    page.click('.analysis__editor button[type="submit"]')
    refusal = page.locator(".analysis__editor .form-error").inner_text()
    assert ("not 1" if language == "en" else "не 1") in refusal
    page.screenshot(path=str(tmp_path / f"refused-{label}.png"), full_page=True)
    found += axe_found(page)

    page.fill("#id_hand1", "8C 10D 6H")
    page.click('.analysis__editor button[type="submit"]')
    page.wait_for_selector("[data-move]")
    first = page.locator("[data-move]").first.get_attribute("data-move")
    page.locator("[data-move]").first.click()
    page.wait_for_selector("[data-undo]")
    assert "m=" in page.url
    page.click("[data-undo]")
    page.wait_for_url(re.compile(r"position="))
    assert page.locator("[data-undo]").count() == 0
    assert page.locator("[data-move]").first.get_attribute("data-move") == first

    page.check('.analysis__evaluate input[name="open"]')
    page.click('.analysis__evaluate button[type="submit"]')
    page.wait_for_selector('.analysis-evaluation[data-status="done"]', timeout=60_000)
    chances = [
        float(p)
        for p in page.locator(".analysis__judgements tr[data-p]").evaluate_all(
            "rs => rs.map(r => r.dataset.p)"
        )
    ]
    assert chances == sorted(chances, reverse=True) and all(0 <= p <= 1 for p in chances)
    page.screenshot(path=str(tmp_path / f"evaluated-{label}.png"), full_page=True)
    found += axe_found(page)
    assert found == []
    context.close()
