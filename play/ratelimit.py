"""Rate limits for frames sent to the game sockets: per socket and per user.

Why two limits: a per-socket token bucket stops one socket's flood at once and costs nothing (it
lives in the consumer); a per-user window in the cache (Redis when ``REDIS_URL`` is set, shared
by every daphne) stops a user who opens many sockets, on one process or several. A refused frame
changes nothing and is answered with a clear error frame; the socket stays open, so a player who
clicked too fast simply carries on.

The consumer calls ``refuse`` at the top of ``receive``; a frame that carries a move is then
counted for its user by ``check_user`` (it raises ``OverLimit``) in the move's own thread call,
and any other frame by ``refuse_user`` before it is answered::

    if await ratelimit.refuse(self):
        return

Limits are generous for people (a move takes a human a second or more; a page sends one frame
per move) and tight for scripts: ``settings.GAMES_SOCKET_RATE`` (frames per second, burst: 5 and
10) and ``settings.GAMES_USER_RATE`` (frames, window seconds: 240 a minute), each overridable by
the environment variable of that name.
"""

from __future__ import annotations

from typing import Any, Protocol

from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils.translation import gettext as _

from durak_site import metrics
from durak_site.buckets import TokenBucket
from durak_site.windows import window_allows

#: The error code the socket's error frame carries.
ERROR_CODE = "rate_limited"


def user_allows(user_id: int, *, now: float | None = None) -> bool:
    """Count one frame of ``user_id`` in the current window; False once over the limit.

    A fixed window in the cache, so every process shares one count per user."""
    limit, window = settings.GAMES_USER_RATE
    return window_allows(f"games:frames:{user_id}", limit=limit, window=window, now=now)


class OverLimit(Exception):
    """A frame over its user's limit (raised where the frame is handled; answer it with ``message()``)."""


def check_user(user_id: int) -> None:
    """Raise ``OverLimit`` when this frame is over ``user_id``'s limit."""
    if not user_allows(user_id):
        metrics.RATE_LIMITED.labels("game_user").inc()
        raise OverLimit


def message() -> str:
    """What a refused frame is answered with."""
    return _("Too many messages: wait a moment, then play on.")


class LimitedSocket(Protocol):
    """What ``refuse`` needs of a consumer: its scope and a way to send an error frame."""

    scope: dict[str, Any]

    async def send_error(self, message: str, *, code: str) -> None: ...


def socket_bucket(consumer: LimitedSocket) -> TokenBucket:
    """The consumer's own bucket, made on its first frame."""
    bucket: TokenBucket | None = consumer.scope.get("games_rate_bucket")
    if bucket is None:
        rate, burst = settings.GAMES_SOCKET_RATE
        bucket = consumer.scope["games_rate_bucket"] = TokenBucket(rate=rate, burst=burst)
    return bucket


async def refuse(consumer: LimitedSocket) -> bool:
    """Whether this frame is over the socket's own limit; if so the sender has been told why.

    No input or output here: a flood on one socket is answered at once and never waits for a
    thread. The per-user count is made by whoever works on the frame next: in the thread call of
    the move it carries (``check_user``), else by ``refuse_user``."""
    if socket_bucket(consumer).take():
        return False
    metrics.RATE_LIMITED.labels("game_socket").inc()
    await consumer.send_error(message(), code=ERROR_CODE)
    return True


async def refuse_user(consumer: LimitedSocket) -> bool:
    """Whether a frame that carries no move (it is answered with an error) is over its user's
    limit; if so the sender has been told why. Anonymous frames have only the socket's limit."""
    user = consumer.scope.get("user")
    if user is None or not user.is_authenticated:
        return False
    if await sync_to_async(user_allows, thread_sensitive=False)(user.pk):
        return False
    metrics.RATE_LIMITED.labels("game_user").inc()
    await consumer.send_error(message(), code=ERROR_CODE)
    return True
