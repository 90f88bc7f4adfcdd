"""What a seek asks for (a ``Setup``: variant, seating, deck, timer, rated or casual) and the grid
of common setups shown on the home page and the lobby (Lichess's quick-pairing grid).

Pure: no database. Two seeks can meet only when their setups are equal; a rated setup plays the
variant's default options, as every rated table does (``games.pools.rated_pool``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.engine import Rules, RulesError
from games.pools import rated_pool, table_kind

#: Turn timers a seek may ask for (the create-table form offers the same).
TURN_SECONDS: Final = (15, 30, 60)


class SetupError(ValueError):
    """A setup no table can play (the form turns it into a message)."""


@dataclass(frozen=True, slots=True)
class Setup:
    variant: str
    players: int
    teams: bool
    deck: int
    turn_seconds: int
    rated: bool

    def rules(self) -> Rules:
        """The engine rules of a table of this setup; raises ``SetupError`` if there is none."""
        try:
            rules = Rules.for_variant(self.variant, players=self.players, teams=self.teams, deck=self.deck)
        except (RulesError, TypeError) as error:
            raise SetupError(str(error)) from None
        if self.turn_seconds not in TURN_SECONDS:
            raise SetupError(f"a turn timer of {self.turn_seconds} s is not offered")
        if self.rated and rated_pool(rules) is None:
            raise SetupError("a rated table plays the variant's default options")
        return rules

    @property
    def kind(self) -> str:
        """``2``, ``3-6`` or ``2v2`` (``games.pools.KINDS``)."""
        return table_kind(players=self.players, teams=self.teams)

    @property
    def pool(self) -> str:
        """The rating pool a rated seek's rating is read from."""
        return f"{self.variant}:{self.kind}"

    @property
    def key(self) -> str:
        """A stable name for the grid's cells and their counts (``podkidnoy-2-36-30-rated``)."""
        teams = "t" if self.teams else ""
        kind = "rated" if self.rated else "casual"
        return f"{self.variant}-{self.players}{teams}-{self.deck}-{self.turn_seconds}-{kind}"


def _setup(variant: str, players: int, *, teams: bool = False, turn: int = 30, rated: bool = False) -> Setup:
    deck = Rules.for_variant(variant).deck
    return Setup(variant, players, teams, deck, turn, rated)


#: The quick-pairing grid, in reading order: the two-player games first, then the tables.
GRID: Final[tuple[Setup, ...]] = (
    _setup("podkidnoy", 2),
    _setup("podkidnoy", 2, rated=True),
    _setup("podkidnoy", 2, turn=15),
    _setup("perevodnoy", 2),
    _setup("perevodnoy", 2, rated=True),
    _setup("podkidnoy", 3),
    _setup("podkidnoy", 4),
    _setup("podkidnoy", 4, teams=True, rated=True),
    _setup("circle", 4),
)
