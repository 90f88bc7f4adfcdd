"""The token bucket every in-process rate limit of the site uses.

Here, on the ground floor, because limits on every floor take it: the frames of a game socket
(``play.ratelimit``), the heartbeats of a personal socket (``people.consumers``) and the
websocket handshakes per address when there is no Redis (``durak_site.socket_counts``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class TokenBucket:
    """``rate`` tokens per second up to ``burst``; each event takes one.

    >>> bucket = TokenBucket(rate=1.0, burst=2, tokens=2.0, stamp=0.0)
    >>> [bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=1.0)]
    [True, True, False, True]
    """

    rate: float
    burst: int
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = float(self.burst)

    def take(self, *, now: float | None = None) -> bool:
        """Take a token if one is left (refilled for the time since the last call)."""
        self.refill(now=now)
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def refill(self, *, now: float | None = None) -> float:
        """The tokens there are now (refilled for the time since the last call)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens
