"""Swiss pairing: players on equal points meet, nobody meets twice while it can be avoided.

Each round is paired from the results so far by one maximum-weight perfect matching (networkx,
Edmonds' blossom algorithm) over all possible pairs. The edge weights encode the rules as strict
priorities, each worth more than everything below it put together, so the matching obeys them
in this order:

1. as few rematches as possible (zero whenever some pairing has none);
2. with an odd field, the bye goes to the lowest-ranked player who has not had one (nobody gets
   two: if everyone has had one the round cannot be paired and ``ValueError`` is raised);
3. players meet others on the same points, or as close as possible (sum of squared gaps);
4. within a points group the top half meets the bottom half (1 v 5, 2 v 6, ... in a group of
   8), as in the Dutch system, so leaders do not knock each other out early; a player who has
   to float to another group meets the nearest-ranked player there.

Ranking means points, then rating, then the seeded shuffle of ``seed_order``. Durak has no
colours, so there is no colour balancing; side 0 of each pair is simply the higher ranked.
The matching is cubic in the field; a few hundred players pair in seconds.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from tournaments.formats.favourites import Entrant, PlayerId, seed_order
from tournaments.formats.standings import GameResult, scores

_BYE = ("bye",)
"""The phantom vertex of an odd field; whoever is matched to it has the bye."""


@dataclass(frozen=True, slots=True)
class SwissRound:
    """A paired round: top board first, the higher-ranked player on side 0 of each pair.

    ``rematches`` counts pairs who met before; it is 0 unless no pairing could avoid it.
    """

    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    bye: PlayerId | None
    rematches: int


def swiss_ranking(
    entrants: Sequence[Entrant],
    games: Iterable[GameResult] = (),
    byes: Iterable[PlayerId] = (),
    *,
    bye_points: float = 1.0,
    seed: int = 0,
) -> list[PlayerId]:
    """The order used for pairing: points, then rating, then the seeded shuffle."""
    points = scores(games, byes, bye_points=bye_points)
    return sorted(seed_order(entrants, seed=seed), key=lambda p: -points.get(p, 0.0))


def pair_swiss(
    entrants: Sequence[Entrant],
    games: Iterable[GameResult] = (),
    byes: Iterable[PlayerId] = (),
    *,
    bye_points: float = 1.0,
    seed: int = 0,
) -> SwissRound:
    """Pair the next round for ``entrants`` (the players still in) given every earlier result.

    ``games`` are the earlier pairings' results (withdrawn players' games still count as met
    pairs), ``byes`` one entry per bye already given. Deterministic for equal inputs.
    """
    games = tuple(games)
    byes = tuple(byes)
    if len(entrants) < 2:
        raise ValueError("a Swiss round needs two or more players")
    order = swiss_ranking(entrants, games, byes, bye_points=bye_points, seed=seed)
    points = scores(games, byes, bye_points=bye_points)
    half = {p: round(2 * points.get(p, 0.0)) for p in order}
    rank = {p: i for i, p in enumerate(order)}
    met = {frozenset((g.a, g.b)) for g in games}
    had_bye = set(byes)
    n = len(order)
    if n % 2 and had_bye >= set(order):
        raise ValueError("everyone has had a bye: no more rounds can be paired")

    group_size = {h: sum(1 for p in order if half[p] == h) for h in set(half.values())}
    spread = max(half.values()) - min(half.values())
    within = 2 * n**3 + 1  # more than tier 4 can add up to over a whole round
    gaps = within * (spread * spread * (n // 2 + 1) + 1)
    bye_rank = gaps * (n + 1)
    rematch = bye_rank * (n + 1)
    base = rematch * 2

    def penalty(x: PlayerId, y: PlayerId) -> int:
        cost = rematch * (frozenset((x, y)) in met)
        cost += within * (half[x] - half[y]) ** 2
        if half[x] == half[y]:
            cost += (2 * abs(rank[x] - rank[y]) - group_size[half[x]]) ** 2
        else:  # a floater meets the nearest player of the other group
            cost += (rank[x] - rank[y]) ** 2
        return cost

    graph = nx.Graph()
    graph.add_nodes_from(order)
    for x, y in itertools.combinations(order, 2):
        graph.add_edge(x, y, weight=base - penalty(x, y))
    if n % 2:
        for p in order:
            if p not in had_bye:
                graph.add_edge(p, _BYE, weight=base - bye_rank * (n - 1 - rank[p]))
    matching = nx.max_weight_matching(graph, maxcardinality=True)

    pairs: list[tuple[PlayerId, PlayerId]] = []
    bye: PlayerId | None = None
    for u, v in matching:
        if _BYE in (u, v):
            bye = v if u == _BYE else u
        else:
            pairs.append((u, v) if rank[u] < rank[v] else (v, u))
    pairs.sort(key=lambda pair: rank[pair[0]])
    return SwissRound(tuple(pairs), bye, sum(frozenset(pair) in met for pair in pairs))
