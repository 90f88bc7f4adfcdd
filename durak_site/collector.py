"""The cyclic garbage collector of a serving process (daphne), tuned for its load.

Why: measured in a daphne under the load test (200 tables at 1 s, ``gc.callbacks`` timing every
collection), Python's default thresholds (a young collection every 700 net allocations) spent
about 8 % of the process's CPU in the collector, and a full collection, walking the 180,000
objects of a warm process, stopped every socket of the process for 200-270 ms. A move allocates
thousands of short-lived containers (rows, models, template contexts, futures), so at 700 the
collector kept walking a move's objects while they were still in use, and their survivors again.

* ``gc.freeze()`` once the application is built: what start-up made (Django, the URL
  configuration, the models' metadata, the engine's tables) lives as long as the process, so
  the collector no longer walks it; a full collection then walks a third as much.
* A young collection every 10,000 net allocations instead of 700: most of a move's objects are
  gone by then (reference counting frees them without the collector).

Together: the collector's time about a sixth of before, its longest pause 80 ms, and 1.05-1.07
times the moves per second in three pairs of runs (``docs/performance.md``).
"""

from __future__ import annotations

import gc

#: Net allocations of container objects between two young collections (Python's default: 700).
YOUNG_THRESHOLD = 10_000


def tune_for_serving() -> None:
    """Freeze what exists now and raise the young generation's threshold (call once, after
    start-up). The older generations keep their default ratios."""
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
