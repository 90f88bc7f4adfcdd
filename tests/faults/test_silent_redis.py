"""Half-open connections to Redis: open at both ends, and nothing crosses any more (a NAT or load
balancer that forgot the flow, a host gone without a reset). No read fails, none returns. The
processes must notice by themselves and connect again (``tests.site.stall.StallingProxy``)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match
from tests.site.stall import StallingProxy

from .stack import Stack
from .support import assert_the_worker_plays_a_timeout, deal, human, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


def test_a_worker_whose_broker_connections_go_silent_consumes_again(stack: Stack) -> None:
    """The worker reaches its broker through a proxy that silences every connection open. Within
    about 20 s it drops the waiting connection itself (kombu's check, with the site's transport
    options), connects again and runs what is sent after: beat's clock (beat reaches Redis
    directly) plays the timeout of a match whose deadline passed. With kombu's defaults (a check
    every 25 s, no socket timeout) it noticed nothing within these 40 s (tried), and a command on
    a silent connection waits for ever.

    What Redis hands to the silent connection before that is lost (a ``BRPOP`` has no
    acknowledgement: the clock's ticks of those seconds); the next tick after the reconnect plays
    the deadline, which is in the database, and the re-arming on a consumer's reconnect sends the
    bot turns again."""
    proxy = StallingProxy(stack.redis.port)
    try:
        stack.beat()
        stack.env["CELERY_BROKER_URL"] = proxy.url()
        stack.worker("worker")
        match = deal([human("alice"), human("bob")], players=2)
        wait_until(lambda: proxy.accepted >= 2, timeout=30)
        connected = proxy.accepted
        assert proxy.stall() >= 2
        started = time.monotonic()
        wait_until(lambda: "dropping stale connection" in stack.log("worker"), timeout=40)
        noticed = time.monotonic() - started

        Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))

        assert_the_worker_plays_a_timeout(stack, match, timeout=30)
        assert proxy.accepted > connected
        assert noticed < 30, noticed
    finally:
        proxy.close()
