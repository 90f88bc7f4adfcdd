"""A request that found no free database connection gets 503 and ``Retry-After``, not a 500.

Why: with the pool (``DATABASE_POOL_MAX_SIZE``) a process never holds more connections than its
pool's size; a request that finds them all taken waits ``DATABASE_POOL_TIMEOUT`` seconds for one,
then psycopg_pool raises ``PoolTimeout`` (Django wraps it in its ``OperationalError``). That is
the site being busy, not broken: the client should come back in a moment. The answer is drawn
without the database (no template, no context processor): it has no connection to draw with.
"""

from __future__ import annotations

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _
from psycopg_pool import PoolTimeout

#: Seconds the client is asked to wait before it tries again.
RETRY_AFTER = 5


def pool_timed_out(error: BaseException) -> bool:
    """Whether ``error`` is (Django's wrapping of) the pool's "no connection in time"."""
    return isinstance(error, PoolTimeout) or (
        isinstance(error, OperationalError) and isinstance(error.__cause__, PoolTimeout)
    )


def busy_response(request: HttpRequest) -> HttpResponse:
    message = _("The club is very busy just now: please try again in a few seconds.")
    headers = {"Retry-After": str(RETRY_AFTER)}
    if request.path.startswith("/api/"):
        return JsonResponse({"error": message, "code": "busy"}, status=503, headers=headers)
    return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8", headers=headers)


class PoolBusyMiddleware(MiddlewareMixin):
    """Turn the pool's timeout in a view (or its template) into ``busy_response``."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return busy_response(request) if pool_timed_out(exception) else None
