"""What one search decision may spend: work first (iterations, solver nodes), then the thread's
CPU time, and a wall-clock ceiling only as a safety net.

A budget in wall-clock time makes a bot as weak as the machine is busy: on a server at load
10-40 a strong decision got a median 32 ms of CPU out of its 300 ms of wall time (issue #38).
Counting the search's own CPU time (``time.thread_time``: only this thread, so neither other
processes nor the worker's other threads count) gives the same play on an idle or a loaded core.
The wall ceiling stops a search that the scheduler starves so long that its answer would show
too late (``THINK_SECONDS`` plus a half-second), and only then.

A bot turn picked up late (the ``bots`` queue fell behind) spends less, by one stated rule
(:meth:`Budget.after`): its budget is divided by ``1 + late`` (``late`` in seconds), never below
``MIN_SHARE`` of it nor below ``MIN_ITERATIONS`` iterations. The search keeps the heuristic's
move unless another leads by a margin (``games.bots.ismcts.PRIOR_VISITS``), so a short search
plays no worse than the heuristic.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

#: The clocks a :class:`Meter` reads (module attributes, so a benchmark or a test can put a
#: loaded machine's clocks in their place).
cpu_clock = time.thread_time
wall_clock = time.perf_counter

#: The least share of its budget a late turn keeps, and the fewest iterations any search runs.
MIN_SHARE = 0.05
MIN_ITERATIONS = 16


@dataclass(frozen=True, slots=True)
class Budget:
    """Per decision: ``iterations`` of the search, ``nodes`` of the exact endgame solver (work),
    ``cpu_s`` seconds of the thread's CPU time, and ``wall_s`` seconds of wall time at most."""

    iterations: int
    cpu_s: float = 60.0
    wall_s: float = 60.0
    nodes: int = 60_000

    def after(self, late: float) -> Budget:
        """This budget for a turn picked up ``late`` seconds after it was due: divided by
        ``1 + late`` (half at one second late, a quarter at three), at least ``MIN_SHARE`` of it
        and ``MIN_ITERATIONS`` iterations.

        >>> Budget(1000, cpu_s=0.5, wall_s=1.0).after(3.0)
        Budget(iterations=250, cpu_s=0.125, wall_s=0.25, nodes=15000)
        """
        if late <= 0:
            return self
        share = max(MIN_SHARE, 1 / (1 + late))
        return replace(
            self,
            iterations=max(MIN_ITERATIONS, int(self.iterations * share)),
            cpu_s=self.cpu_s * share,
            wall_s=self.wall_s * share,
            nodes=int(self.nodes * share),
        )


class Meter:
    """The CPU and wall time spent since it was made, against a :class:`Budget`."""

    __slots__ = ("budget", "cpu0", "wall0")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.cpu0 = cpu_clock()
        self.wall0 = wall_clock()

    def cpu(self) -> float:
        """Seconds of this thread's CPU time spent so far."""
        return cpu_clock() - self.cpu0

    def wall_out(self) -> bool:
        """Whether the wall-clock safety net has run out."""
        return wall_clock() - self.wall0 >= self.budget.wall_s

    def cpu_left(self) -> float:
        """Seconds of CPU time left (negative once spent)."""
        return self.budget.cpu_s - self.cpu()
