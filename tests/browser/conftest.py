"""The one Chromium a browser test module drives (launched once per module, closed after it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright import sync_api as playwright
from playwright.sync_api import Browser

from .chromium import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with playwright.sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
