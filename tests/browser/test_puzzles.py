"""A puzzle mined from a seeded finished game is solved in Chromium on the real site (issue #40
§2), at desktop and phone size, in English and Russian: the home page's daily panel leads to the
puzzles, each move of the line is a button answered with htmx in place, the end says it is solved
and moves the account's puzzle rating. The page passes axe-core's checks before and after; without
script a wrong move fails the puzzle and the page shows the right line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import AXE_RULES, DESKTOP, PHONE
from .site import served_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ViewportSize

playwright = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RUNS = [("en", DESKTOP), ("ru", DESKTOP), ("en", PHONE), ("ru", PHONE)]
SOLVED = {"en": "Solved: you are not the fool.", "ru": "Решено: вы не в дураках."}
RATING = {"en": "Your puzzle rating:", "ru": "Ваш рейтинг в задачах:"}

#: The seeded matches of the puzzle tests, mined; a fresh account (with a browser session) per
#: run, so each run's attempt is a rated first one. Prints every puzzle's line and the sessions.
SETUP = """
import json
from django.core.management import call_command
from accounts.models import User
from puzzles.models import Puzzle
from tests.puzzles.support import seeded_matches

players = [User.objects.create_user(username=name, email=f"{name}@example.com", password=None,
                                    display_name=name) for name in ("ada", "bo", "cy")]
seeded_matches(players)
call_command("mine_puzzles")
sessions = []
for n in range(4):
    user = User.objects.create_user(username=f"solver{n}", email=f"solver{n}@example.com",
                                    password=None, display_name=f"Solver{n}")
    sessions.append(signed_in_session(user))
lines = {str(p.pk): p.steps for p in Puzzle.objects.all()}
print(json.dumps({"sessions": sessions, "lines": lines}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with served_site(tmp_path_factory.mktemp("puzzles"), SETUP) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


@pytest.mark.parametrize(("language", "size"), RUNS, ids=["en", "ru", "en-phone", "ru-phone"])
def test_a_player_solves_a_mined_puzzle(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: ViewportSize, tmp_path: Path
) -> None:
    base, setup = site
    assert setup["lines"], "the seeded games hold puzzles"
    run = RUNS.index((language, size))
    context = browser.new_context(viewport=size, locale=language)
    context.add_cookies(
        [
            {"name": "django_language", "value": language, "url": base},
            {"name": "sessionid", "value": setup["sessions"][run], "url": base},
        ]
    )
    page = context.new_page()
    label = f"{language}-{size['width']}"
    page.goto(base + "/")
    page.click(".puzzle-daily a[href='/puzzles/']")
    page.wait_for_url(re.compile(r"/puzzles/\d+/$"))
    number = re.search(r"/puzzles/(\d+)/$", page.url)
    assert number is not None
    steps = setup["lines"][number.group(1)]
    page.screenshot(path=str(tmp_path / f"start-{label}.png"), full_page=True)
    axe = axe_playwright.Axe()
    found = [v["id"] for v in axe.run(page, options=AXE_RULES).response["violations"]]

    played = 0
    for n, step in enumerate(steps):
        page.click(f'button[name="move"][value="{step["accept"][0]}"]')
        played += 1 + len(step["replies"])
        if n + 1 < len(steps):
            page.wait_for_function(
                "count => document.querySelectorAll('.puzzle-played li').length === count", arg=played
            )
            page.wait_for_selector(".puzzle-feedback__right")
    page.wait_for_selector(".puzzle-feedback__solved")
    assert page.locator(".puzzle-feedback__solved").inner_text() == SOLVED[language]
    assert RATING[language] in page.locator(".puzzle-feedback__rating").inner_text()
    assert page.locator('button[name="move"]').count() == 0
    page.screenshot(path=str(tmp_path / f"solved-{label}.png"), full_page=True)
    found += [v["id"] for v in axe.run(page, options=AXE_RULES).response["violations"]]
    assert found == []
    context.close()


def test_a_wrong_move_without_script_shows_the_right_line(
    site: tuple[str, dict[str, Any]], browser: Browser
) -> None:
    base, setup = site
    number, steps = next(iter(setup["lines"].items()))
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/puzzles/{number}/")
    buttons = page.locator('button[name="move"]')
    wrong = next(
        value
        for value in (buttons.nth(i).get_attribute("value") for i in range(buttons.count()))
        if value not in steps[0]["accept"]
    )
    page.click(f'button[name="move"][value="{wrong}"]')
    page.wait_for_selector(".puzzle-feedback__failed")
    assert page.locator(".puzzle-feedback__failed li").count() == len(steps)
    assert f"/puzzles/{number}/move/" in page.url
    context.close()
