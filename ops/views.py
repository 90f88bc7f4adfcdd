"""The operator's endpoints: liveness, readiness, the Prometheus scrape and the staff's ops page.

Liveness and readiness are public (a load balancer asks them) and say only ``ok``/``fail`` per
check. The scrape is not: it needs ``Authorization: Bearer <OPS_METRICS_TOKEN>``, or, with no
token configured, a request made straight to this process from its own host (no proxy header),
so nginx never passes it on (``docs/operations.md``).
"""

from __future__ import annotations

import hmac
from typing import Any

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from durak_site import heartbeat
from ops import errors, exposition, health, selectors

LOOPBACK = frozenset({"127.0.0.1", "::1"})


@never_cache
@require_GET
def live(request: HttpRequest) -> JsonResponse:
    """The process serves (no database, no Redis)."""
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    """What a request needs, checked (``?web``: only what a page needs now); 503 when any fails."""
    statuses = health.readiness(web_only="web" in request.GET)
    ok = health.ready(statuses)
    return JsonResponse({"status": "ok" if ok else "fail", "checks": statuses}, status=200 if ok else 503)


def may_scrape(request: HttpRequest) -> bool:
    token: str = settings.OPS_METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
    return request.META.get("REMOTE_ADDR") in LOOPBACK and "X-Forwarded-For" not in request.headers


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not may_scrape(request):
        return HttpResponseNotFound()  # nothing here for anybody else
    return HttpResponse(exposition.scrape(), content_type=CONTENT_TYPE_LATEST)


def _age(name: str) -> float | None:
    try:
        return heartbeat.age(name)
    except Exception:
        return None


def _read(read: Any) -> Any:
    """A figure, or ``None`` when its service does not answer (the page still draws)."""
    try:
        return read()
    except Exception:
        return None


@staff_member_required
@never_cache
@require_GET
def overview(request: HttpRequest) -> HttpResponse:
    """The live state at a glance, for staff."""
    context = {
        "players_online": _read(selectors.players_online),
        "matches_in_play": _read(selectors.matches_in_play),
        "deals_waiting": _read(selectors.deals_waiting),
        "reviews_running": _read(selectors.reviews_running),
        "queue_depths": _read(selectors.queue_depths),
        "last_timeout_age": _age("timeout"),
        "errors_last_hour": _read(errors.errors_last_hour),
        "checks": health.readiness(),
    }
    return render(request, "ops/overview.html", context)
