"""Multi-table rounds for 3-6 player Durak: table sizes, seating, points by place, final table.

Each round seats the whole field at tables of balanced size (they differ by one at most). Round
one deals players by rating in a snake so every table gets a fair mix of strong and weak players;
later rounds deal by points scored so far the same way (leaders spread over the tables, as in a
bridge or poker room), then swap players of neighbouring rank between tables to avoid seating
people together again. Finishing places earn points scaled to the table size (see
:func:`table_points`), and the organiser may send the top ``k`` to a final table.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.favourites import Entrant, PlayerId, seed_order, snake

POINTS_SCALE = 60
"""Points for winning a table (and 0 for the fool), whatever its size.

60 is divisible by every ``size - 1`` for tables of 2-6 players, so every place is worth a whole
number of points and shared places a multiple of 0.5 (exact in a float).
"""

Table = tuple[PlayerId, ...]
"""Players at one table, in seat order."""


@dataclass(frozen=True, slots=True)
class TableResult:
    """How one table finished.

    ``finish`` lists groups in finishing order; the players of a group went out in the same bout
    and share the place (places follow competition ranking: 1, 2, 2, 4). ``fool`` is the player
    left holding cards, alone in the last group, or ``None`` when the game was a draw (the last
    players all went out in one bout) or ended without a fool (say, a forfeit).
    """

    finish: tuple[tuple[PlayerId, ...], ...]
    fool: PlayerId | None = None

    def __post_init__(self) -> None:
        players = self.players
        if len(players) < 2 or any(not group for group in self.finish):
            raise ValueError("a table has two or more players and no empty place")
        if len(set(players)) != len(players):
            raise ValueError("a player finishes twice")
        if self.fool is not None and self.finish[-1] != (self.fool,):
            raise ValueError("the fool finishes last and alone")

    @classmethod
    def from_places(cls, places: Mapping[PlayerId, int], fool: PlayerId | None = None) -> TableResult:
        """Build from a place per player (shared places repeat a number: 1, 2, 2, 4)."""
        numbers = sorted(set(places.values()))
        return cls(tuple(tuple(p for p in places if places[p] == n) for n in numbers), fool)

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(itertools.chain.from_iterable(self.finish))

    def places(self) -> dict[PlayerId, int]:
        """Finishing place per player, shared places given the better number."""
        places: dict[PlayerId, int] = {}
        place = 1
        for group in self.finish:
            places.update(dict.fromkeys(group, place))
            place += len(group)
        return places


def table_points(result: TableResult) -> dict[PlayerId, float]:
    """Points per player: ``POINTS_SCALE * (size - place) / (size - 1)``, shared places averaged.

    Scaling to the table size keeps rounds fair when table sizes differ by one: winning is worth
    the same at a table of 3 or of 4, and the fool gets 0 at both. Players who share places
    ``p..q`` each get the mean of those places' points, so a table always hands out the same
    total.

    >>> table_points(TableResult(((1,), (2, 3), (4,)), fool=4))
    {1: 60.0, 2: 30.0, 3: 30.0, 4: 0.0}
    """
    size = len(result.players)
    points: dict[PlayerId, float] = {}
    place = 1
    for group in result.finish:
        middle = place + (len(group) - 1) / 2
        points.update(dict.fromkeys(group, POINTS_SCALE * (size - middle) / (size - 1)))
        place += len(group)
    return points


def table_sizes(players: int, *, min_size: int = 3, max_size: int = 6) -> tuple[int, ...]:
    """Split a field into the fewest tables of at most ``max_size``, sizes differing by one.

    A field of ``max_size`` or fewer plays at one table, even below ``min_size`` (a final or a
    field shrunk by no-shows is still a game of Durak); otherwise a split that would need a table
    below ``min_size`` raises ``ValueError`` (5 players at tables of 3-4, say).

    >>> table_sizes(14)
    (5, 5, 4)
    """
    if not 2 <= min_size <= max_size:
        raise ValueError("table sizes run from min_size to max_size, at least 2")
    if players < 2:
        raise ValueError("a table needs at least two players")
    tables = -(-players // max_size)
    small, extra = divmod(players, tables)
    if tables > 1 and small < min_size:
        raise ValueError(f"{players} players cannot sit at tables of {min_size}-{max_size}")
    return tuple(small + 1 if i < extra else small for i in range(tables))


def seat_round(
    entrants: Sequence[Entrant],
    history: Iterable[TableResult] = (),
    *,
    min_size: int = 3,
    max_size: int = 6,
    seed: int = 0,
) -> tuple[Table, ...]:
    """Seat the field for the next round.

    The order is points so far (nothing in round one), then rating, then the seeded shuffle of
    :func:`~tournaments.formats.favourites.seed_order`; the snake deals it over balanced tables. Then, while
    some swap of two players at different tables lowers the number of pairs who already shared a
    table, the swap between the closest-ranked players is made, so tables stay as balanced as
    the snake made them. This is a local search: it removes every repeat it can reach by single
    swaps, which is all of them in ordinary fields, but it does not prove that none is avoidable.
    Players in ``history`` but not in ``entrants`` (withdrawn) are ignored.
    """
    history = tuple(history)
    points = total_points(history)
    by_rating = seed_order(entrants, seed=seed)
    ordered = sorted(by_rating, key=lambda p: -points.get(p, 0.0))
    sizes = table_sizes(len(ordered), min_size=min_size, max_size=max_size)
    tables = snake(ordered, sizes)
    met = tablemates(history)
    if met:
        _avoid_repeats(tables, {p: i for i, p in enumerate(ordered)}, met)
    return tuple(tuple(t) for t in tables)


def total_points(history: Iterable[TableResult]) -> dict[PlayerId, float]:
    """Points per player over the given tables."""
    totals: dict[PlayerId, float] = {}
    for result in history:
        for player, pts in table_points(result).items():
            totals[player] = totals.get(player, 0.0) + pts
    return totals


def tablemates(history: Iterable[TableResult]) -> set[frozenset[PlayerId]]:
    """Every pair of players who have shared a table."""
    return {frozenset(pair) for result in history for pair in itertools.combinations(result.players, 2)}


def final_table(order: Sequence[PlayerId], k: int, *, max_size: int = 6) -> Table:
    """The top ``k`` of the standings order, seated for the final (``2 <= k <= max_size``)."""
    if not 2 <= k <= min(max_size, len(order)):
        raise ValueError("a final table seats from two players to max_size")
    return tuple(order[:k])


def ranking_after_final(order: Sequence[PlayerId], final: TableResult) -> list[PlayerId]:
    """The event's final order: the final table by its result, then everyone else.

    Finalists who share a place at the final (they went out in the same bout) keep their order
    from the standings before the final, so the event always has a single winner.
    """
    before = {p: i for i, p in enumerate(order)}
    places = final.places()
    finalists = sorted(places, key=lambda p: (places[p], before.get(p, len(before))))
    return finalists + [p for p in order if p not in places]


def _avoid_repeats(
    tables: list[list[PlayerId]], rank: dict[PlayerId, int], met: set[frozenset[PlayerId]]
) -> None:
    """Swap players between tables, closest ranks first, while repeats go down (in place).

    ``clash[p][t]`` (how many earlier tablemates of ``p`` sit at table ``t``) makes each
    candidate swap an O(1) check, and candidates are tried by growing rank distance, so the
    common case -- a neighbour in the snake can take the seat -- is found at once.
    """
    by_rank = sorted(rank, key=rank.__getitem__)
    seat = {p: t for t, table in enumerate(tables) for p in table}
    known: dict[PlayerId, set[PlayerId]] = {p: set() for p in rank}
    for pair in met:
        a, b = pair
        if a in known and b in known:  # withdrawn players no longer sit anywhere
            known[a].add(b)
            known[b].add(a)
    clash = {p: [sum(o in known[p] for o in table) for table in tables] for p in rank}

    def gain(x: PlayerId, y: PlayerId) -> int:
        tx, ty = seat[x], seat[y]
        both = 2 * (y in known[x])
        return clash[x][tx] + clash[y][ty] - clash[x][ty] - clash[y][tx] + both

    while True:
        swap = None
        for distance in range(1, len(by_rank)):
            pairs = zip(by_rank, by_rank[distance:], strict=False)
            found = [(gain(x, y), x, y) for x, y in pairs if seat[x] != seat[y]]
            best = max(found, key=lambda g: g[0], default=None)
            if best is not None and best[0] > 0:
                swap = best
                break
        if swap is None:
            return
        _, x, y = swap
        tx, ty = seat[x], seat[y]
        tables[tx][tables[tx].index(x)] = y
        tables[ty][tables[ty].index(y)] = x
        seat[x], seat[y] = ty, tx
        for p in known[x]:
            clash[p][tx] -= 1
            clash[p][ty] += 1
        for p in known[y]:
            clash[p][ty] -= 1
            clash[p][tx] += 1
