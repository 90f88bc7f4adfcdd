"""The Prometheus exposition: every process's instruments (``durak_site.metrics``) and the
measures read at scrape time (``ops.selectors``).

With ``PROMETHEUS_MULTIPROC_DIR`` set (the same folder for every daphne and Celery process of a
host, emptied before they start: ``deploy/``), prometheus-client's ``MultiProcessCollector`` sums
the files of all of them, so any daphne answers for the whole host. Files of gauges whose process
has died are removed first (``mark_process_dead``), so sockets of a crashed daphne stop counting.
Without the folder each process answers for itself (the embedded mode: one process).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ops import selectors

logger = logging.getLogger(__name__)

#: The files a live gauge writes, one per process: ``gauge_livesum_<pid>.db``.
_LIVE_FILE = re.compile(r"^gauge_live\w*?_(\d+)\.db$")


class ClubCollector(Collector):
    """The measures read from the database and Redis when scraped. One that cannot be read (its
    service is down) is left out of the scrape, which still answers: readiness says what is down."""

    def collect(self) -> Iterator[Metric]:
        for name, documentation, read in (
            ("durak_matches_in_play", "Matches in play.", selectors.matches_in_play),
            (
                "durak_deals_waiting",
                "Full tables waiting for their players' values to deal.",
                selectors.deals_waiting,
            ),
            ("durak_reviews_running", "Game reviews asked for and not finished.", selectors.reviews_running),
            ("durak_players_online", "Signed-in users with a page open.", selectors.players_online),
        ):
            try:
                yield GaugeMetricFamily(name, documentation, value=read())
            except Exception:
                logger.warning("metrics: %s unreadable", name, exc_info=True)
        try:
            depths = selectors.queue_depths()
        except Exception:
            logger.warning("metrics: queue depths unreadable", exc_info=True)
            return
        if depths is not None:
            family = GaugeMetricFamily(
                "durak_celery_queue_depth", "Tasks waiting in each Celery queue.", labels=["queue"]
            )
            for queue, depth in depths.items():
                family.add_metric([queue], depth)
            yield family


class _ThisProcess(Collector):
    """The default registry of this process (its instruments, and its own CPU and memory)."""

    def collect(self) -> Iterator[Metric]:
        yield from REGISTRY.collect()


def reap_dead_processes(folder: str) -> None:
    """Remove the live-gauge files of processes that are gone (on this host: the folder is local)."""
    for path in Path(folder).glob("gauge_live*.db"):
        found = _LIVE_FILE.match(path.name)
        if found is None:
            continue
        pid = int(found.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, folder)  # type: ignore[no-untyped-call]
        except PermissionError:  # alive, another user's
            continue


def scrape(*, site_wide: bool = True) -> bytes:
    """The text exposition of the whole host (or of this process alone, without the folder), with
    the site-wide measures read at scrape time unless ``site_wide`` is False (a worker host's
    exporter: the web hosts' endpoints already report them)."""
    registry = CollectorRegistry()
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        reap_dead_processes(folder)
        multiprocess.MultiProcessCollector(registry, path=folder)  # type: ignore[no-untyped-call]
    else:
        registry.register(_ThisProcess())
    if site_wide:
        registry.register(ClubCollector())
    return generate_latest(registry)
