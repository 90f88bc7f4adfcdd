"""Standings: points, then tiebreaks, for two-player formats and for multi-table rounds.

Both kinds of event reduce to the same thing: in each round a player earns points and meets
some opponents, against each of whom they did better, the same or worse (1, 0.5, 0). A two-player
pairing has one opponent and the pairwise score is the game's; a multi-table round has every
tablemate as an opponent, beaten if they finished behind. The tiebreaks are defined once on that
shape, so the page can explain them the same way for every format (:data:`EXPLANATIONS`).

A bye counts as points (``bye_points``, 1 by default, like a win) but has no opponent, so it adds
nothing to Buchholz, Sonneborn-Berger or direct encounter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.formats.favourites import PlayerId
from tournaments.formats.multitable import TableResult, table_points


@dataclass(frozen=True, slots=True)
class GameResult:
    """The result of one pairing in a two-player format.

    ``score_a`` is 1 (``a`` won), 0.5 (draw) or 0 (``b`` won); a best-of-N match enters as its
    match result (see ``elimination.series_outcome``). ``fool`` is the player who was left with
    cards: the loser of a decisive game, ``None`` for a draw or a forfeit (nobody played the
    hand out).
    """

    a: PlayerId
    b: PlayerId
    score_a: float
    fool: PlayerId | None = None

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError("a player cannot meet themselves")
        if self.score_a not in (0.0, 0.5, 1.0):
            raise ValueError("a score is 1, 0.5 or 0")
        loser = {1.0: self.b, 0.0: self.a}.get(self.score_a)
        if self.fool is not None and self.fool != loser:
            raise ValueError("only the loser of a decisive game can be the fool")

    @property
    def score_b(self) -> float:
        return 1.0 - self.score_a

    def score_of(self, player: PlayerId) -> float:
        return self.score_a if player == self.a else self.score_b

    def opponent_of(self, player: PlayerId) -> PlayerId:
        return self.b if player == self.a else self.a


class Tiebreak(StrEnum):
    """A tiebreak column; compare players level on points, in the order the organiser chose."""

    BUCHHOLZ = "buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    DIRECT_ENCOUNTER = "direct_encounter"
    FEWEST_FOOLS = "fewest_fools"


EXPLANATIONS: dict[Tiebreak, str] = {
    Tiebreak.BUCHHOLZ: (
        "Buchholz: the sum of your opponents' points (at a multi-player table, the average of "
        "your tablemates' points), so a score made against strong opposition counts for more. "
        "Higher is better; a bye adds nothing."
    ),
    Tiebreak.SONNEBORN_BERGER: (
        "Sonneborn-Berger: for each opponent, their points times your result against them "
        "(1 for a win or finishing ahead, 1/2 for a draw or the same place, 0 otherwise), "
        "averaged over a table's players. It rewards beating the players who did well. "
        "Higher is better."
    ),
    Tiebreak.DIRECT_ENCOUNTER: (
        "Direct encounter: your results (1, 1/2, 0 as above) in the games or tables you shared "
        "with the players level with you on points. Higher is better."
    ),
    Tiebreak.FEWEST_FOOLS: ("Fewest fool finishes: how often you were left holding cards. Lower is better."),
}
"""Plain English for the page. The site should show its own gettext-marked copy of these (no
Django here); the keys are the stable values to store in the tournament's settings."""

DEFAULT_TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak.DIRECT_ENCOUNTER,
    Tiebreak.BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.FEWEST_FOOLS,
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the table; ``tiebreaks`` follow the order that was asked for.

    ``rank`` is shared by players equal on points and every tiebreak (competition ranking:
    1, 2, 2, 4); lines of a shared rank keep the order of the ``players`` argument (seed order).
    """

    rank: int
    player: PlayerId
    points: float
    tiebreaks: tuple[float, ...]
    played: int
    fools: int
    byes: int


@dataclass(frozen=True, slots=True)
class _Round:
    points: float
    opponents: tuple[tuple[PlayerId, float], ...]
    """Each opponent with this player's pairwise score against them."""


def scores(
    games: Iterable[GameResult], byes: Iterable[PlayerId] = (), *, bye_points: float = 1.0
) -> dict[PlayerId, float]:
    """Points per player from two-player results and byes (players with nothing are absent)."""
    totals: dict[PlayerId, float] = {}
    for game in games:
        totals[game.a] = totals.get(game.a, 0.0) + game.score_a
        totals[game.b] = totals.get(game.b, 0.0) + game.score_b
    for player in byes:
        totals[player] = totals.get(player, 0.0) + bye_points
    return totals


def two_player_standings(
    players: Sequence[PlayerId],
    games: Iterable[GameResult],
    *,
    byes: Iterable[PlayerId] = (),
    bye_points: float = 1.0,
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
) -> list[Standing]:
    """Standings of a round robin or Swiss event (``byes`` lists one entry per bye received)."""
    rounds: dict[PlayerId, list[_Round]] = {p: [] for p in players}
    fools = dict.fromkeys(players, 0)
    bye_count = dict.fromkeys(players, 0)
    for game in games:
        for player in (game.a, game.b):
            if player not in rounds:
                continue  # withdrawn: still an opponent of the others
            score = game.score_of(player)
            opponent = game.opponent_of(player)
            rounds[player].append(_Round(score, ((opponent, score),)))
        if game.fool in fools:
            fools[game.fool] += 1
    for player in byes:
        if player not in rounds:
            continue
        rounds[player].append(_Round(bye_points, ()))
        bye_count[player] += 1
    return _rank(players, rounds, fools, bye_count, tiebreaks)


def multitable_standings(
    players: Sequence[PlayerId],
    tables: Iterable[TableResult],
    *,
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
) -> list[Standing]:
    """Standings of multi-table rounds, points from :func:`~tournaments.formats.multitable.table_points`.

    ``players`` may omit someone who withdrew; their past tables still count for the others'
    tiebreaks.
    """
    rounds: dict[PlayerId, list[_Round]] = {p: [] for p in players}
    fools = dict.fromkeys(players, 0)
    for table in tables:
        points = table_points(table)
        places = table.places()
        for player in places:
            if player not in rounds:
                continue
            opponents = tuple((o, _compare(places[player], places[o])) for o in places if o != player)
            rounds[player].append(_Round(points[player], opponents))
        if table.fool in fools:
            fools[table.fool] += 1
    return _rank(players, rounds, fools, dict.fromkeys(players, 0), tiebreaks)


def _compare(place: int, other: int) -> float:
    return 1.0 if place < other else 0.5 if place == other else 0.0


def _rank(
    players: Sequence[PlayerId],
    rounds: dict[PlayerId, list[_Round]],
    fools: dict[PlayerId, int],
    byes: dict[PlayerId, int],
    tiebreaks: Sequence[Tiebreak],
) -> list[Standing]:
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    points = {p: sum(r.points for r in rs) for p, rs in rounds.items()}

    def strength(opponent: PlayerId) -> float:
        # A withdrawn opponent's points are not tracked; their games still count as played.
        return points.get(opponent, 0.0)

    def value(player: PlayerId, tiebreak: Tiebreak) -> float:
        faced = [r.opponents for r in rounds[player] if r.opponents]
        match tiebreak:
            case Tiebreak.BUCHHOLZ:
                return sum(sum(strength(o) for o, _ in ops) / len(ops) for ops in faced)
            case Tiebreak.SONNEBORN_BERGER:
                return sum(sum(s * strength(o) for o, s in ops) / len(ops) for ops in faced)
            case Tiebreak.DIRECT_ENCOUNTER:
                level = points[player]
                return sum((s for ops in faced for o, s in ops if points.get(o) == level), 0.0)
            case Tiebreak.FEWEST_FOOLS:
                return float(fools[player])

    # Rounded so that averages summed in a different order still tie exactly.
    lines = {p: tuple(round(value(p, t), 6) for t in tiebreaks) for p in players}
    signs = tuple(1.0 if t is Tiebreak.FEWEST_FOOLS else -1.0 for t in tiebreaks)

    def key(player: PlayerId) -> tuple[float, ...]:
        return (-points[player], *(s * v for s, v in zip(signs, lines[player], strict=True)))

    ordered = sorted(players, key=key)  # stable: seed order among equals
    standings: list[Standing] = []
    for position, player in enumerate(ordered, start=1):
        tied = standings and key(standings[-1].player) == key(player)
        standings.append(
            Standing(
                rank=standings[-1].rank if tied else position,
                player=player,
                points=points[player],
                tiebreaks=lines[player],
                played=sum(1 for r in rounds[player] if r.opponents),
                fools=fools[player],
                byes=byes[player],
            )
        )
    return standings
