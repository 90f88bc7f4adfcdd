"""What every log line says about where it comes from: the request (or socket frame, or task) id,
and the match and its version being changed.

Context variables, so each request, frame and task has its own, and they follow a call into
``sync_to_async``'s threads (asgiref copies the context). Set by ``ops.middleware`` for a request
(its ``X-Request-ID`` from nginx, else a new one), by the match socket for each frame, by
``ops.signals`` for a Celery task, and by the turn core once it holds a match
(``play.services.turn.match_lock``). ``ContextFilter`` puts them on every record, so the
text format prints them and the JSON format (``durak_site.logging``) carries them as fields.
"""

from __future__ import annotations

import logging
import uuid
from contextvars import ContextVar

request_id: ContextVar[str] = ContextVar("request_id", default="-")
match_id: ContextVar[int | None] = ContextVar("match_id", default=None)
version: ContextVar[int | None] = ContextVar("version", default=None)


def new_request(given: str = "") -> str:
    """Start a request's (or frame's, or task's) context: its id (``given`` when it is a sane id
    from our own proxy, else a new one), with no match yet."""
    rid = given if given and len(given) <= 64 and given.replace("-", "").isalnum() else uuid.uuid4().hex
    request_id.set(rid)
    match_id.set(None)
    version.set(None)
    return rid


def bind_match(match: int, at_version: int) -> None:
    """The match (and its version as read) that the rest of this request's lines are about."""
    match_id.set(match)
    version.set(at_version)


class ContextFilter(logging.Filter):
    """Adds ``request_id``, ``match_id`` and ``version`` to every record (``-`` when unset)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        match = match_id.get()
        record.match_id = "-" if match is None else match
        at = version.get()
        record.version = "-" if at is None else at
        return True
