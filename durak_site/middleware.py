"""The viewer's time zone: every page shows and reads times in the zone the browser reported.

``static/js/timezone.js`` stores ``Intl.DateTimeFormat().resolvedOptions().timeZone`` in the
``tz`` cookie; this middleware activates that zone for the request, so templates' ``|date`` and
forms' datetime fields (the tournament form) use it. No cookie, or a name that is not an IANA zone,
means UTC, the site's ``TIME_ZONE``.
"""

from __future__ import annotations

import zoneinfo
from functools import lru_cache

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.deprecation import MiddlewareMixin

#: The cookie the browser's script sets.
COOKIE = "tz"
#: IANA names are short ("America/Argentina/ComodRivadavia" is among the longest).
MAX_NAME = 64


@lru_cache(maxsize=256)
def zone_named(name: str) -> zoneinfo.ZoneInfo | None:
    """The zone called ``name``, or ``None`` when there is no such zone (or it is not a name)."""
    if not name or len(name) > MAX_NAME or name.startswith(("/", ".")) or ".." in name:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


class TimeZoneMiddleware(MiddlewareMixin):
    """Activate the zone of the ``tz`` cookie for each request (UTC without one); a mixin like
    Django's ``LocaleMiddleware`` beside it, so the chain stays async-capable under daphne."""

    def process_request(self, request: HttpRequest) -> None:
        zone = zone_named(request.COOKIES.get(COOKIE, ""))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        timezone.deactivate()
        return response
