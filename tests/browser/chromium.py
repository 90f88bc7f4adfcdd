"""Where the browser tests find Chromium and how they start it (Debian's package; Playwright cannot
download browsers here). The flags keep it off the closed network: without them it keeps trying.
With what every module shares: the two screen sizes, axe-core's checks, and the few page helpers
(a signed-in context, a visit that must succeed, waiting for a path that two navigations race to)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
#: The two screens every page is looked at on: a laptop's and a phone's.
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
#: The axe-core checks a page must pass: WCAG 2.2 A and AA, and axe's best practices.
AXE_RULES = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    }
}


def wait_for_path(page: Any, pattern: re.Pattern[str], timeout: float = 15.0) -> None:
    """Wait until ``page`` has arrived at a URL matching ``pattern``.

    When a table fills, two navigations race to the match page: the POST's redirect and the table
    socket's push. The loser is aborted, which ``page.wait_for_url`` reports as an error although
    the page gets there; this waits for the outcome instead.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pattern.search(page.url):
            try:
                page.wait_for_load_state("load", timeout=5_000)
            except Exception:  # that navigation was overtaken by the other: look again
                continue
            if pattern.search(page.url):
                return
        page.wait_for_timeout(100)
    raise AssertionError(f"the page stayed at {page.url}, not {pattern.pattern}")


def signed_in(
    browser: Browser, base: str, ids: dict[str, Any], language: str, size: ViewportSize, **options: Any
) -> BrowserContext:
    """A browser context in ``language`` at ``size``, signed in with the setup's ``ids["session"]``."""
    context = browser.new_context(viewport=size, locale=language, **options)
    context.add_cookies(
        [
            {"name": "django_language", "value": language, "url": base},
            {"name": "sessionid", "value": ids["session"], "url": base},
        ]
    )
    return context


def visit(page: Page, url: str) -> None:
    """Open ``url``, which must answer with a success."""
    response = page.goto(url)
    assert response is not None and response.ok, (url, response and response.status)
