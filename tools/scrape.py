"""``loadtest --metrics``: what the server counted during a load test, read from a daphne's
``/ops/metrics`` as Prometheus would, to hold against what the scripted players saw.

The endpoint is scraped before the play and after it, parsed with prometheus-client's own parser,
and the difference is the run's: the moves the server committed, by whom (a player's, or the
clock's when a deadline ran out), and the two histograms of a move's server time. Quantiles are
estimated from the buckets the way Prometheus's ``histogram_quantile`` does; the client's
latencies go through the same buckets and the same estimate (``client``), so the two compare
like with like: each move's server part lies inside what its client measured, so the server's
count below every bucket bound is at least the client's, and its estimate is never larger.
"""

from __future__ import annotations

import math
import urllib.request
from collections import Counter
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

#: A scrape: every sample's value by its name and its labels (sorted pairs).
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]

MOVES = "durak_moves_applied_total"
#: The histograms reported, by their key in the report.
HISTOGRAMS = {
    "frame_to_commit": "durak_move_frame_to_commit_seconds",
    "commit_to_push": "durak_move_commit_to_push_seconds",
}


def fetch(host: str, port: int, token: str) -> Samples:
    """Scrape ``http://host:port/ops/metrics`` (with ``token`` as the bearer, when given)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(f"http://{host}:{port}/ops/metrics", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return parse(response.read().decode())


def parse(text: str) -> Samples:
    """Every sample of a text exposition, read by prometheus-client's parser."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def moves_by(before: Samples, after: Samples) -> dict[str, int]:
    """The moves committed between two scrapes, by whom (``player``, ``timeout``, …), over every
    variant."""
    counted: Counter[str] = Counter()
    for (name, labels), value in after.items():
        if name == MOVES:
            counted[dict(labels)["by"]] += round(value - before.get((name, labels), 0.0))
    return {by: count for by, count in sorted(counted.items()) if count}


def buckets(before: Samples, after: Samples, name: str) -> list[tuple[float, float]]:
    """The histogram ``name``'s cumulative buckets between two scrapes: ``(upper bound, count)``,
    ascending, the last one ``+Inf``."""
    found = []
    for (sample, labels), value in after.items():
        if sample == f"{name}_bucket":
            found.append((float(dict(labels)["le"]), value - before.get((sample, labels), 0.0)))
    return sorted(found)


def bucketed(values: list[float], bounds: list[float]) -> list[tuple[float, float]]:
    """``values`` as cumulative buckets with these upper bounds (the last one ``+Inf``).

    >>> bucketed([0.003, 0.02, 7.0], [0.005, 0.025, math.inf])
    [(0.005, 1), (0.025, 2), (inf, 3)]
    """
    return [(bound, sum(1 for value in values if value <= bound)) for bound in bounds]


def quantile(cumulative: list[tuple[float, float]], q: float) -> float:
    """The ``q``-quantile estimated from cumulative buckets as Prometheus's
    ``histogram_quantile`` does: linear within the bucket that holds the rank, the first bucket
    starting at 0, a rank in ``+Inf``'s bucket answered with the highest finite bound.

    >>> round(quantile([(0.01, 50), (0.1, 100), (math.inf, 100)], 0.75), 6)
    0.055
    """
    total = cumulative[-1][1] if cumulative else 0
    if not total:
        return 0.0
    rank = q * total
    lower, below = 0.0, 0.0
    for bound, count in cumulative:
        if count >= rank:
            if math.isinf(bound):
                return lower
            return lower + (bound - lower) * (rank - below) / (count - below)
        lower, below = bound, count
    return lower


def figures(before: Samples, after: Samples, latencies: list[float]) -> dict[str, Any]:
    """The run's server figures between two scrapes, and the client's ``latencies`` (seconds)
    through the frame-to-commit buckets: ``{moves: {by: n}, frame_to_commit: {count, mean_ms,
    p50_ms, p99_ms}, commit_to_push: {…}, client: {count, mean_ms, p50_ms, p99_ms}}``."""
    report: dict[str, Any] = {"moves": moves_by(before, after)}
    for key, name in HISTOGRAMS.items():
        count = after.get((f"{name}_count", ()), 0.0) - before.get((f"{name}_count", ()), 0.0)
        total = after.get((f"{name}_sum", ()), 0.0) - before.get((f"{name}_sum", ()), 0.0)
        report[key] = _summary(round(count), total, buckets(before, after, name))
    bounds = [bound for bound, _count in buckets(before, after, HISTOGRAMS["frame_to_commit"])]
    report["client"] = _summary(len(latencies), sum(latencies), bucketed(latencies, bounds))
    return report


def _summary(count: int, total: float, cumulative: list[tuple[float, float]]) -> dict[str, Any]:
    return {
        "count": count,
        "mean_ms": round(total / count * 1000, 2) if count else 0.0,
        "p50_ms": round(quantile(cumulative, 0.50) * 1000, 2),
        "p99_ms": round(quantile(cumulative, 0.99) * 1000, 2),
    }


def bot_figures(before: Samples, after: Samples, level: str) -> dict[str, Any]:
    """What ``level``'s searched decisions cost between two scrapes: how many, their mean CPU
    milliseconds and mean iterations (``loadtest --bots``)."""

    def delta(name: str) -> float:
        key = (name, (("level", level),))
        return after.get(key, 0.0) - before.get(key, 0.0)

    count = delta("durak_bot_decision_cpu_seconds_count")
    return {
        "searched": round(count),
        "cpu_ms": round(delta("durak_bot_decision_cpu_seconds_sum") / count * 1000, 1) if count else 0.0,
        "iterations": round(delta("durak_bot_iterations_sum") / count) if count else 0,
    }
