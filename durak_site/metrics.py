"""The club's Prometheus instruments, declared once, that every app records into.

They live here, on the ground floor, so live play, the bots and the sockets can record without
importing ``ops`` (the top floor, which serves them at ``/ops/metrics``: ``docs/operations.md``).
Measures computed when scraped (matches in play, deals waiting, reviews running, queue depths)
are not here: ``ops.collectors`` reads them from the database and Redis at scrape time, so every
process reports the same truth.

Several processes (daphnes, Celery's pool): with ``PROMETHEUS_MULTIPROC_DIR`` set before the
process starts, prometheus-client keeps every value in a memory-mapped file of that folder and the
endpoint sums the files of every process of the host. Gauges say how they combine
(``multiprocess_mode``): ``livesum`` counts only processes still alive.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

#: Buckets for a move's server time, in seconds: most take milliseconds, a loaded stack tens of them.
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: Buckets for Celery tasks and bot decisions: a review step or a search takes seconds.
SLOW_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

MOVES = Counter(
    "durak_moves_applied",
    "Moves applied and committed, by variant and by whom (player, bot, autopilot, timer, forced).",
    ["variant", "by"],
)
MOVE_COMMIT_SECONDS = Histogram(
    "durak_move_frame_to_commit_seconds",
    "A player's move from its socket frame's arrival to its committed transaction.",
    buckets=FAST_BUCKETS,
)
MOVE_PUSH_SECONDS = Histogram(
    "durak_move_commit_to_push_seconds",
    "A move from its commit to each other socket of the match having sent its new view.",
    buckets=FAST_BUCKETS,
)
SOCKETS_OPEN = Gauge(
    "durak_sockets_open",
    "Websockets open, by kind (the path's first part).",
    ["kind"],
    multiprocess_mode="livesum",
)
TIMEOUTS = Counter("durak_timeouts", "Turn deadlines that ran out and were played by the clock.")
TASK_SECONDS = Histogram(
    "durak_celery_task_seconds",
    "Celery tasks' run time, by queue and task.",
    ["queue", "task"],
    buckets=SLOW_BUCKETS,
)
BOT_DECISION_SECONDS = Histogram(
    "durak_bot_decision_seconds",
    "A bot's (or autopilot's) choice of move, its search only (not its human-like pause), by level.",
    ["level"],
    buckets=SLOW_BUCKETS,
)
BOT_ITERATIONS = Histogram(
    "durak_bot_iterations",
    "A searching bot's (medium, strong) iterations per decision that it searched, by level: fewer at "
    "the same CPU budget means a slower search or a late turn's smaller budget.",
    ["level"],
    buckets=(25, 50, 100, 200, 400, 800, 1600, 3200, 6400),
)
BOT_CPU_SECONDS = Histogram(
    "durak_bot_decision_cpu_seconds",
    "A searching bot's (medium, strong) CPU time per decision that it searched, by level: what a "
    "bot table costs the machine (its budget is counted in it).",
    ["level"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.0),
)
REFUSED_FRAMES = Counter(
    "durak_refused_frames", "Socket frames refused without a change, by error code.", ["code"]
)
RATE_LIMITED = Counter("durak_rate_limited", "Frames or requests over a limit, by which limit.", ["limit"])
HTTP_RESPONSES = Counter("durak_http_responses", "HTTP responses by status code.", ["status"])
