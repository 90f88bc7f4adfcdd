"""How many board pages and evaluation requests a client may send (``settings.ANALYSIS_BOARD_RATE``
an account, four times as many an address), counted before any database work or engine reading:
each board request reads a position and plays its line on, so a script fetching boards in a loop
is stopped here first (``durak_site.windows.request_allows``)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from durak_site.windows import request_allows


def board_allowed(request: HttpRequest, *, now: float | None = None) -> bool:
    """Count one request for the request's address and its account; False once either is over."""
    return request_allows(request, "analysis", settings.ANALYSIS_BOARD_RATE, now=now)
