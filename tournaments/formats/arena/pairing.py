"""Arena pairing: who of the players waiting now sits down with whom (``docs/arena.md``).

An arena pairs whenever a player becomes free (their game ended, they joined or came back from a
pause) and on a periodic tick; each pass calls :func:`plan_tables` with the players waiting at
that moment. A table seats ``size`` players (2 for duels, 3 to 6 for tables). The rule:

1. **No immediate rematch.** A *repeat* is two players at one table where one of them sat with
   the other at their last game. The pass first seats as many full tables as it can with no
   repeat at all. Those who play are the longest-waiting (the ones left over waited least),
   unless leaving out someone else is the only way to avoid a repeat. Each table is made of
   players close on the leaderboard (its position: at the start, with everybody on 0 points,
   that is by rating, so 1 meets 2 and 3 meets 4): the longest-waiting player still free sits
   with the closest ones who are not a repeat for anyone at the table.
2. **A short wait, then anyone.** A player left over keeps waiting until they have waited
   :data:`PATIENCE_SECONDS`; then they sit down even with a repeat (with the fewest repeats the
   others allow). So two players alone in a duel arena meet again after that wait, not at once.
3. **Smaller tables.** Tables of 4 to 6 need that many free players; when fewer are waiting and
   one of them has waited the patience out, all of them (at least ``min_size``, 3 by default)
   sit at one smaller table rather than wait for ever. Tables of 2 and 3 are never smaller.

Step 1 first tries each player's closest fit in turn, which seats everyone it can in ordinary
fields (each player can repeat with only the few they last sat with); when that leaves a table
unseated, an exact search looks for more within ``budget`` steps, so a pass stays a few
milliseconds. Below the budget (every field of a dozen or so players) it finds the most
repeat-free tables there are.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.favourites import PlayerId

PATIENCE_SECONDS = 20.0
"""How long a waiting player holds out for a pairing without a repeat, or for a full table."""
SEARCH_BUDGET = 5_000
"""Steps of the exact search for repeat-free tables, in one pass."""

Table = tuple[PlayerId, ...]


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player free to play: their position on the leaderboard (1 = leader) and how many
    seconds they have waited."""

    player: PlayerId
    rank: int
    waited: float = 0.0


@dataclass(frozen=True, slots=True)
class Plan:
    """One pass's tables (each in seat order), the players still waiting, and ``recheck``: in how
    many seconds a pass could seat some of them without anyone new (``None``: only a player who
    becomes free can change anything)."""

    tables: tuple[Table, ...]
    waiting: tuple[PlayerId, ...]
    recheck: float | None


def default_min_size(size: int) -> int:
    """The smallest table a table of ``size`` falls back to: duels and tables of three never."""
    return size if size <= 3 else 3


def repeats(table: Sequence[PlayerId], last: Mapping[PlayerId, Collection[PlayerId]]) -> int:
    """Pairs at ``table`` who sat together at one of the two's last game.

    >>> repeats((1, 2, 3), {1: {2}, 2: {1}, 3: {4}})
    1
    """
    return sum(
        1 for i, a in enumerate(table) for b in table[i + 1 :] if b in last.get(a, ()) or a in last.get(b, ())
    )


def plan_tables(
    waiting: Sequence[Waiting],
    last: Mapping[PlayerId, Collection[PlayerId]],
    *,
    size: int,
    min_size: int | None = None,
    patience: float = PATIENCE_SECONDS,
    budget: int = SEARCH_BUDGET,
) -> Plan:
    """Seat the waiting players (``last``: each player's opponents at their last game).

    >>> w = [Waiting(1, 1), Waiting(2, 2), Waiting(3, 3), Waiting(4, 4)]
    >>> plan_tables(w, {}, size=2).tables
    ((1, 2), (3, 4))
    >>> plan_tables(w, {1: {2}, 2: {1}, 3: {4}, 4: {3}}, size=2).tables
    ((1, 3), (2, 4))
    >>> plan = plan_tables(w[:2], {1: {2}, 2: {1}}, size=2)
    >>> plan.tables, plan.waiting, plan.recheck
    ((), (1, 2), 20.0)
    >>> plan_tables([Waiting(1, 1, 25), Waiting(2, 2, 25)], {1: {2}, 2: {1}}, size=2).tables
    ((1, 2),)
    """
    if size < 2:
        raise ValueError("a table seats two or more players")
    low = default_min_size(size) if min_size is None else min_size
    if not 2 <= low <= size:
        raise ValueError("min_size runs from 2 to size")
    players = [w.player for w in waiting]
    if len(set(players)) != len(players):
        raise ValueError("a player waits twice")
    info = {w.player: w for w in waiting}
    queue = sorted(players, key=lambda p: (-info[p].waited, info[p].rank, p))
    met = _Met(last)
    tables = list(_repeat_free(queue, info, met, size, budget))
    seated = {p for t in tables for p in t}
    left = [p for p in queue if p not in seated]
    while True:
        overdue = [p for p in left if info[p].waited >= patience]
        if not overdue:
            break
        if len(left) >= size:
            table = _closest(overdue[0], left, info, met, size)
        elif len(left) >= low:
            table = tuple(left)
        else:
            break
        tables.append(table)
        left = [p for p in left if p not in table]
    recheck = None
    if len(left) >= low:
        pending = [patience - info[p].waited for p in left if info[p].waited < patience]
        recheck = min(pending) if pending else None
    return Plan(tuple(tables), tuple(left), recheck)


class _Met:
    """Who may not sit with whom without a repeat (symmetric)."""

    def __init__(self, last: Mapping[PlayerId, Collection[PlayerId]]) -> None:
        self.pairs: set[frozenset[PlayerId]] = {
            frozenset((a, b)) for a, others in last.items() for b in others if a != b
        }

    def __call__(self, a: PlayerId, b: PlayerId) -> bool:
        return frozenset((a, b)) in self.pairs


class _OutOfBudget(Exception):
    pass


def _repeat_free(
    queue: list[PlayerId], info: Mapping[PlayerId, Waiting], met: _Met, size: int, budget: int
) -> list[Table]:
    """The most full tables without a repeat. A quick first fit (each player in the queue with
    the closest ones who fit) usually seats everyone it can; only when it leaves a table
    unseated does the exact search look for more, from the most possible down, within the
    budget (shared by every count tried). Each count is tried with the longest-waiting players
    alone first, then with anyone."""
    most = len(queue) // size
    fields = (queue[: most * size], queue)
    best = max((_greedy(f, info, met, size, most) for f in fields), key=len)
    steps = _Budget(budget)
    for count in range(most, len(best), -1):
        for field in (queue[: count * size], queue):
            try:
                found = _Search(info, met, size, steps).run(tuple(field), count)
            except _OutOfBudget:
                return best
            if found is not None:
                return found
    return best


class _Budget:
    def __init__(self, steps: int) -> None:
        self.steps = steps

    def spend(self) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise _OutOfBudget


class _Search:
    """Depth first: the first player still free either sits, with the closest compatible
    players first, or (while some may be left out) waits; failed states are remembered."""

    def __init__(self, info: Mapping[PlayerId, Waiting], met: _Met, size: int, budget: _Budget) -> None:
        self.info, self.met, self.size, self.budget = info, met, size, budget
        self.failed: set[tuple[frozenset[PlayerId], int]] = set()

    def run(self, remaining: tuple[PlayerId, ...], count: int) -> list[Table] | None:
        if count == 0:
            return []
        if len(remaining) < count * self.size:
            return None
        key = (frozenset(remaining), count)
        if key in self.failed:
            return None
        self.budget.spend()
        first, rest = remaining[0], remaining[1:]
        candidates = [p for p in _by_closeness(first, rest, self.info) if not self.met(first, p)]
        for group in _groups(candidates, self.size - 1, self.met):
            self.budget.spend()
            taken = set(group)
            found = self.run(tuple(p for p in rest if p not in taken), count - 1)
            if found is not None:
                return [(first, *group), *found]
        if len(remaining) > count * self.size:
            found = self.run(rest, count)
            if found is not None:
                return found
        self.failed.add(key)
        return None


def _groups(candidates: list[PlayerId], k: int, met: _Met) -> Iterator[tuple[PlayerId, ...]]:
    """Sets of ``k`` candidates who may all sit together, in the candidates' order."""
    if k == 0:
        yield ()
        return
    for i, p in enumerate(candidates):
        rest = [q for q in candidates[i + 1 :] if not met(p, q)]
        for group in _groups(rest, k - 1, met):
            yield (p, *group)


def _greedy(
    queue: list[PlayerId], info: Mapping[PlayerId, Waiting], met: _Met, size: int, most: int
) -> list[Table]:
    """Up to ``most`` tables: each free player in turn sits with the closest ones who fit."""
    tables: list[Table] = []
    free = list(queue)
    while len(free) >= size and len(tables) < most:
        first = free.pop(0)
        fits = [p for p in _by_closeness(first, free, info) if not met(first, p)]
        group = next(_groups(fits, size - 1, met), None)
        if group is None:
            continue
        tables.append((first, *group))
        free = [p for p in free if p not in group]
    return tables


def _closest(
    first: PlayerId, left: list[PlayerId], info: Mapping[PlayerId, Waiting], met: _Met, size: int
) -> Table:
    """``first`` and the ``size - 1`` others who add the fewest repeats, closest first."""
    table = [first]
    others = [p for p in _by_closeness(first, left, info) if p != first]
    while len(table) < size:
        best = min(others, key=lambda p: sum(met(p, q) for q in table))
        table.append(best)
        others.remove(best)
    return tuple(table)


def _by_closeness(
    first: PlayerId, others: Sequence[PlayerId], info: Mapping[PlayerId, Waiting]
) -> list[PlayerId]:
    """``others`` by distance from ``first`` on the leaderboard, then longest waiting."""
    rank = info[first].rank
    return sorted(others, key=lambda p: (abs(info[p].rank - rank), -info[p].waited, p))
