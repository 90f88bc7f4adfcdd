"""Arena scoring: the points of each finished game, the streak that doubles them, berserk's
bonus, and the order of the leaderboard (``docs/arena.md`` has worked examples).

**Points by place.** Every pair of players at a table is a little game of its own, decided by
the finishing order (as for ratings, ``games/elo.py``): out earlier beats out later, out in the
same bout (or still holding cards together when a game is drawn) is level, the fool loses to
everyone. A player scores 2 points for each player who finished behind them and 1 for each who
shared their place. So a duel is 2 for a win, 1 for a draw and 0 for a loss, and a table of
``n`` gives its first player out ``2(n-1)`` and its fool 0; every table hands out exactly 2
points per pair of players.

**A good result** is more than half of what the table could give: more than ``n-1`` points. In
a duel that is a win; at a table of four, finishing first or second; at a table of six, in the
first three.

**Streak (on fire).** After two good results in a row, a player is *on fire*: their next game
scores double, and they stay on fire as long as their results stay good. The game that breaks
the run still scores double (it was played on fire); the one after it does not. This is
Lichess's arena rule (``lila``'s ``Sheet``), with "a win" read as "a good result".

**Berserk.** A player who halved their own turn timer for a game scores 1 bonus point if they
did not lose it (were not the fool; a draw is not a loss) and the game lasted at least
:data:`BERSERK_MIN_MOVES` moves, so a quick resignation by the opponent earns nothing. The bonus
is never doubled.

**The leaderboard** is ordered by points; then fewer games (the same points from fewer games);
then whoever reached their total first (the game that last raised it ended earlier); players
still level share the rank and are listed in the order given (the arena lists them by rating).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.formats.favourites import PlayerId
from tournaments.formats.multitable import TableResult

POINTS_AHEAD = 2
"""Points for each player who finished behind you."""
POINTS_LEVEL = 1
"""Points for each player who shared your place."""
STREAK = 2
"""Good results in a row that set a player on fire."""
BERSERK_BONUS = 1
BERSERK_MIN_MOVES = 8
"""Moves the game's log must hold (every seat's, timeouts included) for berserk's bonus."""


@dataclass(frozen=True, slots=True)
class Finish:
    """How one player finished one game: how many finished behind them, level with them (in the
    same place) and ahead of them, and whether they were the fool."""

    behind: int
    level: int
    ahead: int
    fool: bool = False

    def __post_init__(self) -> None:
        if min(self.behind, self.level, self.ahead) < 0 or self.size < 2:
            raise ValueError("a game has two or more players")
        if self.fool and (self.behind or self.level):
            raise ValueError("the fool finishes last and alone")

    @property
    def size(self) -> int:
        """Players at the table."""
        return self.behind + self.level + self.ahead + 1

    @property
    def points(self) -> int:
        """The game's points before any doubling or bonus.

        >>> Finish(behind=1, level=0, ahead=0).points, Finish(behind=0, level=1, ahead=0).points
        (2, 1)
        >>> Finish(behind=3, level=1, ahead=1).points  # 2nd of 6, level with the 3rd
        7
        """
        return POINTS_AHEAD * self.behind + POINTS_LEVEL * self.level

    @property
    def good(self) -> bool:
        """More than half of the table's most: a win in a duel, the better half of a table."""
        return self.points > self.size - 1

    @property
    def lost(self) -> bool:
        """The fool lost; a draw is no loss, and nor is any other place."""
        return self.fool


def finish_of(result: TableResult, player: PlayerId) -> Finish:
    """``player``'s finish at a table.

    >>> table = TableResult(((7,), (3, 4), (9,)), fool=9)
    >>> finish_of(table, 3), finish_of(table, 9).points
    (Finish(behind=1, level=1, ahead=1, fool=False), 0)
    """
    place_of = {p: i for i, group in enumerate(result.finish) for p in group}
    if player not in place_of:
        raise ValueError(f"player {player} did not play at this table")
    mine = place_of[player]
    others = [place for p, place in place_of.items() if p != player]
    return Finish(
        behind=sum(1 for place in others if place > mine),
        level=sum(1 for place in others if place == mine),
        ahead=sum(1 for place in others if place < mine),
        fool=result.fool == player,
    )


@dataclass(frozen=True, slots=True)
class Game:
    """One game on a player's sheet: their finish, and whether they went berserk in it (and the
    game lasted long enough for the bonus)."""

    finish: Finish
    berserk: bool = False
    long_enough: bool = True


@dataclass(frozen=True, slots=True)
class Score:
    """What one game scored: its points, whether they were doubled, and berserk's bonus."""

    base: int
    doubled: bool
    bonus: int
    good: bool
    berserk: bool

    @property
    def points(self) -> int:
        return self.base * (2 if self.doubled else 1) + self.bonus


@dataclass(frozen=True, slots=True)
class Sheet:
    """A player's games in the order they were played, as scored."""

    scores: tuple[Score, ...] = ()

    @property
    def total(self) -> int:
        return sum(score.points for score in self.scores)

    @property
    def streak(self) -> int:
        """Good results in a row at the end of the sheet."""
        run = 0
        for score in reversed(self.scores):
            if not score.good:
                break
            run += 1
        return run

    @property
    def on_fire(self) -> bool:
        """Whether the player's next game scores double."""
        return self.streak >= STREAK


def sheet(games: Iterable[Game]) -> Sheet:
    """Score ``games`` (in the order they were played).

    Two wins set a duellist on fire; the third game is doubled, the draw that ends the run is
    doubled too, the game after it is not:

    >>> win, draw = Finish(1, 0, 0), Finish(0, 1, 0)
    >>> s = sheet(Game(f) for f in (win, win, win, draw, win))
    >>> [score.points for score in s.scores], s.total, s.on_fire
    ([2, 2, 4, 2, 2], 12, False)
    >>> sheet([Game(win, berserk=True), Game(Finish(0, 0, 1, fool=True), berserk=True)]).total
    3
    """
    scores: list[Score] = []
    run = 0
    for game in games:
        finish = game.finish
        bonus = BERSERK_BONUS if game.berserk and game.long_enough and not finish.lost else 0
        scores.append(Score(finish.points, run >= STREAK, bonus, finish.good, game.berserk))
        run = run + 1 if finish.good else 0
    return Sheet(tuple(scores))


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """A finished arena game: its table's result, who went berserk at it, whether it lasted
    long enough for berserk's bonus, and ``number``, its place in the order games ended."""

    number: int
    result: TableResult
    berserk: frozenset[PlayerId] = field(default_factory=frozenset)
    long_enough: bool = True


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the leaderboard. ``reached`` is the ``number`` of the game that last raised
    the player's total (0 without points)."""

    rank: int
    player: PlayerId
    points: int
    games: int
    sheet: Sheet
    reached: int


def sheets(players: Sequence[PlayerId], games: Iterable[ArenaGame]) -> dict[PlayerId, tuple[int, Sheet]]:
    """Each player's sheet over ``games`` (in ``number`` order), with the game that last raised
    their total. Players who are not listed still count as others' opponents."""
    listed = set(players)
    played: dict[PlayerId, list[tuple[int, Game]]] = {p: [] for p in players}
    for game in sorted(games, key=lambda g: g.number):
        for player in game.result.players:
            if player in listed:
                finish = finish_of(game.result, player)
                played[player].append((game.number, Game(finish, player in game.berserk, game.long_enough)))
    found: dict[PlayerId, tuple[int, Sheet]] = {}
    for player, rows in played.items():
        scored = sheet(g for _number, g in rows)
        raised = (number for (number, _g), s in zip(rows, scored.scores, strict=True) if s.points)
        reached = max(raised, default=0)
        found[player] = (reached, scored)
    return found


def leaderboard(players: Sequence[PlayerId], games: Iterable[ArenaGame]) -> list[Line]:
    """The leaderboard of ``players`` (listed by the last tiebreak: the order given) over the
    finished ``games``.

    >>> duel = lambda n, a, b: ArenaGame(n, TableResult(((a,), (b,)), fool=b))
    >>> [(line.rank, line.player, line.points) for line in leaderboard([1, 2, 3], [duel(1, 2, 1)])]
    [(1, 2, 2), (2, 3, 0), (3, 1, 0)]
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    found = sheets(players, games)
    order = {p: i for i, p in enumerate(players)}

    def key(player: PlayerId) -> tuple[int, int, int]:
        reached, scored = found[player]
        return (-scored.total, len(scored.scores), reached)

    ordered = sorted(players, key=lambda p: (*key(p), order[p]))
    lines: list[Line] = []
    for position, player in enumerate(ordered, start=1):
        tied = bool(lines) and key(lines[-1].player) == key(player)
        reached, scored = found[player]
        lines.append(
            Line(
                rank=lines[-1].rank if tied else position,
                player=player,
                points=scored.total,
                games=len(scored.scores),
                sheet=scored,
                reached=reached,
            )
        )
    return lines
