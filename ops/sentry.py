"""Error reports to Sentry, when ``SENTRY_DSN`` is set; nothing secret leaves the server.

What is removed before an event is sent (``scrub``): every value under a key that names a secret
or a player's hidden information (a hand, the stock, a seed or a player's value for it, the
snapshot that holds them, a token, a password, a session, a cookie, a CSRF token, an
``Authorization``), any text that carries such a key in JSON (a snapshot pasted into a message),
the request's cookies, body and query string, and every breadcrumb of an SQL statement (its
parameters may be a snapshot). Local variables of the stack's frames are never collected
(``include_local_variables=False``): a frame of the turn core holds the whole game state. Personal
data (addresses, user names) is left out, as by default.
Seeds are removed even after their match ended (when they are public): simpler, and no report
needs one.
"""

from __future__ import annotations

import re
from typing import Any

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration

SCRUBBED = "[scrubbed]"

#: A key holding any of these (any case) is a secret, or a player's hidden cards.
SECRET_KEY = re.compile(
    r"hand|stock|talon|deck|seed|snapshot|contribution|token|passw|secret|session|cookie|csrf"
    r"|authorization|api[_-]?key|dsn",
    re.IGNORECASE,
)
#: Text that carries such a key as JSON (``"hands": [...]``) or as a query (``token=...``).
SECRET_TEXT = re.compile(
    r"""["']?(hands?|stock|seed|server_seed|snapshot|token|password|sessionid|csrftoken)["']?\s*[:=]""",
    re.IGNORECASE,
)


def scrub(value: Any) -> Any:
    """``value`` with every secret replaced by ``SCRUBBED`` (dicts and lists walked through)."""
    if isinstance(value, dict):
        return {
            key: SCRUBBED if isinstance(key, str) and SECRET_KEY.search(key) else scrub(item)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [scrub(item) for item in value]
    if isinstance(value, str) and SECRET_TEXT.search(value):
        return SCRUBBED
    return value


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    request = event.get("request")
    if isinstance(request, dict):
        for part in ("cookies", "data", "query_string", "env"):
            request.pop(part, None)
    breadcrumbs = event.get("breadcrumbs")
    if isinstance(breadcrumbs, dict) and isinstance(breadcrumbs.get("values"), list):
        breadcrumbs["values"] = [crumb for crumb in breadcrumbs["values"] if not _is_query(crumb)]
    scrubbed: dict[str, Any] = scrub(event)
    return scrubbed


def before_breadcrumb(crumb: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any] | None:
    return None if _is_query(crumb) else scrub(crumb)


def _is_query(crumb: Any) -> bool:
    return isinstance(crumb, dict) and crumb.get("category") == "query"


def start(dsn: str, *, environment: str, transport: Any = None) -> None:
    """Start reporting to ``dsn`` (``transport``: another way to send, which tests give)."""
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        include_local_variables=False,
        max_request_body_size="never",
        before_send=before_send,  # type: ignore[arg-type]
        before_breadcrumb=before_breadcrumb,
        traces_sample_rate=0.0,
        transport=transport,
    )
