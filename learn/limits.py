"""How many answers to the lessons' steps a client may send (``settings.LEARN_ANSWER_RATE`` an
account, four times as many an address), counted before the view reads anything: a person answers a
step every few seconds at most, a script posting answers in a loop is stopped here
(``durak_site.windows.request_allows``)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from durak_site.windows import request_allows


def answer_allowed(request: HttpRequest, *, now: float | None = None) -> bool:
    """Count one answer for the request's address and its account; False once either is over."""
    return request_allows(request, "learn:answers", settings.LEARN_ANSWER_RATE, now=now)
