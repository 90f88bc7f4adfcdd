"""The table options of RULES.md as one frozen dataclass.

A flag per option rather than a subclass per variant: ``podkidnoy``, ``perevodnoy`` and
``circle`` differ by defaults and by a few rules-driven branches in the bout code.
Impossible tables are refused in ``__post_init__`` with a sentence a host understands.

>>> r = Rules.for_variant("circle", players=4)
>>> r.deck, r.first_bout_limit_5
(52, False)
>>> Rules(players=7)
Traceback (most recent call last):
...
games.engine.rules.RulesError: a table seats 2 to 6 players, not 7
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

Variant = Literal["podkidnoy", "perevodnoy", "circle"]
VARIANTS: tuple[str, ...] = ("podkidnoy", "perevodnoy", "circle")

#: The termination guarantee: a game that reaches this many applied actions ends as a
#: draw among the players still holding cards (reason ``"move_cap"``).  Random play
#: needs a few hundred actions at most; 3000 is far beyond any real game.
DEFAULT_MAX_ACTIONS = 3000


class RulesError(ValueError):
    """An impossible or unknown table setting."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every table option of RULES.md with its default (podkidnoy, 2 players, 36 cards)."""

    variant: str = "podkidnoy"
    players: int = 2
    deck: int = 36
    teams: bool = False
    throw_in: str = "all"
    first_bout_limit_5: bool = True
    draws: bool = True
    redeal: bool = False
    transfer_by_trump_show: bool = False
    jokers: int = 0
    joker_beats: str = "any"
    throw_in_after_joker: bool = True
    joker_last: str = "defence_only"
    max_actions: int = DEFAULT_MAX_ACTIONS

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise RulesError(f"unknown variant {self.variant!r} (podkidnoy, perevodnoy or circle)")
        if not isinstance(self.players, int) or not 2 <= self.players <= 6:
            raise RulesError(f"a table seats 2 to 6 players, not {self.players}")
        if self.deck not in (24, 36, 52):
            raise RulesError(f"the deck has 24, 36 or 52 cards, not {self.deck}")
        if self.variant == "circle" and self.deck != 52:
            raise RulesError("circle is played with the 52-card deck")
        if self.variant != "circle" and self.players * 6 > self.deck:
            raise RulesError(
                f"{self.players} players need {self.players * 6} cards: "
                f"the {self.deck}-card deck cannot deal six to each"
            )
        if self.teams and self.players != 4:
            raise RulesError("teams play 2 against 2: the table needs exactly 4 players")
        if self.throw_in not in ("all", "neighbours"):
            raise RulesError(f"throw_in is 'all' or 'neighbours', not {self.throw_in!r}")
        if self.jokers not in (0, 2):
            raise RulesError(f"the deck has 0 or 2 jokers, not {self.jokers}")
        if self.jokers and self.variant != "circle":
            raise RulesError("jokers are played only in circle")
        if self.joker_beats not in ("any", "colour"):
            raise RulesError(f"joker_beats is 'any' or 'colour', not {self.joker_beats!r}")
        if self.joker_last not in ("defence_only", "pass_on"):
            raise RulesError(
                f"joker_last is 'defence_only' or 'pass_on', not {self.joker_last!r}"
            )
        if self.transfer_by_trump_show and self.variant == "podkidnoy":
            raise RulesError("transfer by showing a trump needs a transfer variant")
        if self.redeal and self.variant == "circle":
            raise RulesError("circle deals no hands of six, so it has no redeal")
        if not isinstance(self.max_actions, int) or self.max_actions < 100:
            raise RulesError("max_actions must be an integer of at least 100")
        for name in ("teams", "first_bout_limit_5", "draws", "redeal",
                     "transfer_by_trump_show", "throw_in_after_joker"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} is true or false")

    @classmethod
    def for_variant(cls, variant: str, players: int = 2, **overrides: Any) -> Rules:
        """The variant's defaults (circle: 52 cards, no first-bito-5 rule), then overrides."""
        base: dict[str, Any] = {"variant": variant, "players": players}
        if variant == "circle":
            base.update(deck=52, first_bout_limit_5=False)
        base.update(overrides)
        return cls(**base)

    @property
    def transfers(self) -> bool:
        """Whether the defender may pass the attack on (perevodnoy and circle)."""
        return self.variant != "podkidnoy"

    @property
    def first_five(self) -> bool:
        """Whether the "first discard: five cards" limit applies (never in circle)."""
        return self.first_bout_limit_5 and self.variant != "circle"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready options."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; unknown keys are refused."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown table options: {', '.join(unknown)}")
        return cls(**data)
