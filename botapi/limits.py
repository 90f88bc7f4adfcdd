"""How many Bot API streams may be open at once: per token and per client address, counted in the
cache (Redis when ``REDIS_URL`` is set, so every process agrees) before any database work.

Why: a stream lasts as long as its client keeps it open, and one token's hundred event streams
once took every PostgreSQL connection of the site. As on Lichess, a token has one event stream at
a time: a second one is refused (429) while the first is open, rather than replacing it, so the
bound is hard. A token may follow ``BOTAPI_GAME_STREAMS_PER_TOKEN`` games at once, and one client
address may hold ``BOTAPI_STREAMS_PER_ADDRESS`` streams of any tokens (bogus ones included: the
address is counted before the token is looked up).

A stream holds one slot per limit: a cache key taken with ``add`` (which fails when the key is
there), so no two streams of any process take the same one. The slot is given back when the
stream ends, however it ends: the response's ``close`` (Django calls it after the last chunk, a
client gone, or an error) and the stream's own ``finally``, whichever comes first. A process that
dies cannot give it back, so a slot is a lease of ``LEASE_SECONDS`` that the stream renews while
it runs (``Lease.renew``): a dead stream's slot is free again within that time.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from .tokens import digest

#: Seconds a slot lasts without renewal; a running stream renews it every third of this.
LEASE_SECONDS = 30.0
#: Event streams a token may hold at once (Lichess's rule).
EVENT_STREAMS_PER_TOKEN = 1


class StreamRefused(Exception):
    """A stream over one of the limits; ``message`` is translated and meant for its client."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Lease:
    """The slots one stream holds."""

    keys: list[str]
    renewed: float = field(default_factory=time.monotonic)
    released: bool = False

    async def renew(self) -> None:
        """Renew the slots when a third of their lease has gone by (cheap to call often)."""
        if self.released or time.monotonic() - self.renewed < LEASE_SECONDS / 3:
            return
        self.renewed = time.monotonic()
        for key in self.keys:
            await cache.atouch(key, LEASE_SECONDS)

    def release(self) -> None:
        """Give the slots back (once; later calls do nothing)."""
        if not self.released:
            self.released = True
            cache.delete_many(self.keys)


def _take(prefix: str, size: int, owner: str) -> str | None:
    """A free slot of the ``size`` under ``prefix``, now held by ``owner``; None when all are held."""
    keys = [f"{prefix}:{number}" for number in range(size)]
    held = cache.get_many(keys)
    for key in keys:
        if key not in held and cache.add(key, owner, LEASE_SECONDS):
            return key
    return None


def lease_take(*, kind: str, raw_token: str, address: str) -> Lease:
    """The slots of a new stream of ``kind`` (``event`` or ``game``) for this token and address;
    raises ``StreamRefused`` when a limit is reached (holding nothing then)."""
    owner = uuid.uuid4().hex
    by_address = _take(f"botapi:streams:address:{address}", settings.BOTAPI_STREAMS_PER_ADDRESS, owner)
    if by_address is None:
        raise StreamRefused(_("Too many streams are open from your address: close one first."))
    if kind == "event":
        size = EVENT_STREAMS_PER_TOKEN
        refused = _("This token already has its event stream open: one at a time. Close it first.")
    else:
        size = settings.BOTAPI_GAME_STREAMS_PER_TOKEN
        refused = _("This token has as many game streams open as it may: close one first.")
    by_token = _take(f"botapi:streams:{kind}:{digest(raw_token)}", size, owner)
    if by_token is None:
        cache.delete(by_address)
        raise StreamRefused(refused)
    return Lease([by_address, by_token])


class LeasedStream:
    """A stream's lines, whose lease is renewed as they flow and given back when it ends.

    Django's ``StreamingHttpResponse`` calls ``close`` when the response is closed (after the last
    chunk, or once the client has gone), even when the lines never started; the ``finally`` covers
    a server that stops sending without closing the response."""

    def __init__(self, lines: AsyncIterator[bytes], lease: Lease) -> None:
        self.lines = lines
        self.lease = lease

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self.lines:
                yield chunk
                await self.lease.renew()
        finally:
            self.lease.release()

    def close(self) -> None:
        self.lease.release()
