"""How many puzzle moves a client may send (``settings.PUZZLES_MOVE_RATE`` an account, four times
as many an address), counted before the view reads anything: a person moves every few seconds at
most, a script posting moves in a loop is stopped here (``durak_site.windows.request_allows``)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from durak_site.windows import request_allows


def move_allowed(request: HttpRequest, *, now: float | None = None) -> bool:
    """Count one move for the request's address and its account; False once either is over."""
    return request_allows(request, "puzzles:moves", settings.PUZZLES_MOVE_RATE, now=now)
