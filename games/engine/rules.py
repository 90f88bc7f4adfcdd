"""The table options of ``docs/rules.md`` as one frozen dataclass, and which options each
variant has.

A flag per option: the variants differ by their defaults here, and by the class of game state
chosen for each when a game is made (:meth:`games.engine.GameState.class_for`). Impossible
tables are refused in ``__post_init__`` with a sentence a host understands.
:meth:`Rules.options_for` says which options a host chooses at a table of a variant, with
their kind, choices and default, so a form renders from it.

>>> r = Rules.for_variant("circle", players=4)
>>> r.deck, r.first_bout_limit_5
(52, False)
>>> [o.name for o in Rules.options_for("circle") if o.kind == "choice"]
['players', 'jokers', 'joker_beats', 'joker_last']
>>> Rules(players=7)
Traceback (most recent call last):
...
games.engine.rules.RulesError: a table seats 2 to 6 players, not 7
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final, Literal

from .refusals import Refusal, counted, gettext_noop, ngettext

Variant = Literal["podkidnoy", "perevodnoy", "circle"]
VARIANTS: tuple[str, ...] = ("podkidnoy", "perevodnoy", "circle")

#: The choices of the options that are not on/off (validation and :meth:`Rules.options_for`).
PLAYERS: Final = (2, 3, 4, 5, 6)
DECKS: Final = (24, 36, 52)
THROW_IN: Final = ("all", "neighbours")
JOKERS: Final = (0, 2)
JOKER_BEATS: Final = ("any", "colour")
JOKER_LAST: Final = ("defence_only", "pass_on")

#: The termination guarantee: a game that reaches this many applied actions ends as a
#: draw among the players still holding cards (reason ``"move_cap"``).  Random play
#: needs a few hundred actions at most; 3000 is far beyond any real game.
DEFAULT_MAX_ACTIONS = 3000


#: Every sentence a table is refused with, by its stable code, declared once as the refusals of
#: an action are (:mod:`.refusals`): the engine renders the English, the site translates the same
#: template by the code (``games.words.rules_message``).
TABLE_REFUSALS: Final[Mapping[str, Refusal]] = {
    r.code: r
    for r in (
        Refusal(
            "unknown_variant", gettext_noop("unknown variant '%(variant)s' (podkidnoy, perevodnoy or circle)")
        ),
        Refusal("players", gettext_noop("a table seats 2 to 6 players, not %(players)s")),
        Refusal("deck", gettext_noop("the deck has 24, 36 or 52 cards, not %(deck)s")),
        Refusal("circle_deck", gettext_noop("circle is played with the 52-card deck")),
        counted(
            "six_each",
            "players",
            lambda n: ngettext(
                "%(players)d player needs %(cards)d cards: the %(deck)d-card deck cannot deal six to each",
                "%(players)d players need %(cards)d cards: the %(deck)d-card deck cannot deal six to each",
                n,
            ),
        ),
        Refusal("teams", gettext_noop("teams play 2 against 2: the table needs exactly 4 players")),
        Refusal("throw_in", gettext_noop("throw_in is 'all' or 'neighbours', not '%(value)s'")),
        Refusal("jokers", gettext_noop("the deck has 0 or 2 jokers, not %(jokers)s")),
        Refusal("jokers_variant", gettext_noop("jokers are played only in circle")),
        Refusal("joker_beats", gettext_noop("joker_beats is 'any' or 'colour', not '%(value)s'")),
        Refusal("joker_last", gettext_noop("joker_last is 'defence_only' or 'pass_on', not '%(value)s'")),
        Refusal("show_variant", gettext_noop("transfer by showing a trump needs a transfer variant")),
        Refusal("circle_redeal", gettext_noop("circle deals no hands of six, so it has no redeal")),
        Refusal("max_actions", gettext_noop("max_actions must be an integer of at least 100")),
        Refusal("throw_in_waits", gettext_noop("throw_in_waits is 'public' or 'holders', not '%(value)s'")),
        Refusal("flag", gettext_noop("%(name)s is true or false")),
        Refusal("unknown_options", gettext_noop("unknown table options: %(names)s")),
    )
}


class RulesError(ValueError):
    """An impossible or unknown table setting; ``str(err)`` says why. Like
    :class:`~games.engine.errors.IllegalAction` it carries a stable ``code`` and ``params``, so
    the site translates the declared sentence (:data:`TABLE_REFUSALS`) instead of re-deriving
    the check.

    >>> e = RulesError.of("players", players=7)
    >>> str(e), e.code, e.params
    ('a table seats 2 to 6 players, not 7', 'players', {'players': 7})
    >>> e.refusal.template
    'a table seats 2 to 6 players, not %(players)s'
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, object] = params

    @classmethod
    def of(cls, code: str, **params: object) -> RulesError:
        """The declared refusal ``code`` with ``params`` (``KeyError`` for an undeclared code)."""
        return cls(code, TABLE_REFUSALS[code].render(params), **params)

    @property
    def refusal(self) -> Refusal | None:
        """The declared sentence of this code (None for a code the engine does not declare)."""
        return TABLE_REFUSALS.get(self.code)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a host chooses: ``kind`` ``bool`` (choices ``(False, True)``) or ``choice``;
    ``default`` is the variant's; ``needs`` names an option and the value it must have for
    this one to matter (the joker options need two jokers, teams need four players)."""

    name: str
    kind: Literal["bool", "choice"]
    choices: tuple[object, ...]
    default: object
    needs: tuple[str, object] | None = None


#: The options a host chooses, per variant, in the order a form shows them; the others keep
#: the variant's value (``circle`` always plays 52 cards, has no redeal, ignores
#: ``first_bout_limit_5`` and lets every player throw in, each in turn, as its source text
#: says; only the transfer variants show a trump; only ``circle`` has jokers).
#: ``max_actions`` is the termination guarantee, not a host's choice.
_OPTIONS: Final = {
    "podkidnoy": ("players", "teams", "deck", "throw_in", "first_bout_limit_5", "draws", "redeal"),
    "perevodnoy": (
        "players",
        "teams",
        "deck",
        "throw_in",
        "first_bout_limit_5",
        "draws",
        "redeal",
        "transfer_by_trump_show",
    ),
    "circle": (
        "players",
        "teams",
        "draws",
        "transfer_by_trump_show",
        "jokers",
        "joker_beats",
        "throw_in_after_joker",
        "joker_last",
    ),
}
_CHOICES: Final[dict[str, tuple[object, ...]]] = {
    "players": PLAYERS,
    "deck": DECKS,
    "throw_in": THROW_IN,
    "jokers": JOKERS,
    "joker_beats": JOKER_BEATS,
    "joker_last": JOKER_LAST,
}
_NEEDS: Final[dict[str, tuple[str, object]]] = {
    "teams": ("players", 4),
    "joker_beats": ("jokers", 2),
    "throw_in_after_joker": ("jokers", 2),
    "joker_last": ("jokers", 2),
}
_FLAGS: Final = (
    "teams",
    "first_bout_limit_5",
    "draws",
    "redeal",
    "transfer_by_trump_show",
    "throw_in_after_joker",
)


#: The two rules of whom a bout waits for (``Rules.throw_in_waits``).
THROW_IN_WAITS: Final = ("public", "holders")


@dataclass(frozen=True, slots=True)
class Rules:
    """Every table option of ``docs/rules.md`` with its default (podkidnoy, 2 players, 36 cards)."""

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
    #: Whom a bout waits for to throw in: ``"public"``, every thrower on public facts alone
    #: (``docs/rules.md`` §3 "Waiting for the throwers"); ``"holders"``, only throwers holding a
    #: card that fits, the rule of games recorded before it, kept so they replay exactly. Not a
    #: host's choice: a record without the key is one of those (``from_dict``).
    throw_in_waits: str = "public"

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise RulesError.of("unknown_variant", variant=self.variant)
        if not isinstance(self.players, int) or self.players not in PLAYERS:
            raise RulesError.of("players", players=self.players)
        if self.deck not in DECKS:
            raise RulesError.of("deck", deck=self.deck)
        if self.variant == "circle" and self.deck != 52:
            raise RulesError.of("circle_deck")
        if self.variant != "circle" and self.players * 6 > self.deck:
            raise RulesError.of("six_each", players=self.players, cards=self.players * 6, deck=self.deck)
        if self.teams and self.players != 4:
            raise RulesError.of("teams")
        if self.throw_in not in THROW_IN:
            raise RulesError.of("throw_in", value=self.throw_in)
        if self.jokers not in JOKERS:
            raise RulesError.of("jokers", jokers=self.jokers)
        if self.jokers and self.variant != "circle":
            raise RulesError.of("jokers_variant")
        if self.joker_beats not in JOKER_BEATS:
            raise RulesError.of("joker_beats", value=self.joker_beats)
        if self.joker_last not in JOKER_LAST:
            raise RulesError.of("joker_last", value=self.joker_last)
        if self.transfer_by_trump_show and self.variant == "podkidnoy":
            raise RulesError.of("show_variant")
        if self.redeal and self.variant == "circle":
            raise RulesError.of("circle_redeal")
        if not isinstance(self.max_actions, int) or self.max_actions < 100:
            raise RulesError.of("max_actions")
        if self.throw_in_waits not in THROW_IN_WAITS:
            raise RulesError.of("throw_in_waits", value=self.throw_in_waits)
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError.of("flag", name=name)

    @classmethod
    def for_variant(cls, variant: str, players: int = 2, **overrides: Any) -> Rules:
        """The variant's defaults (circle: 52 cards, no first-bito-5 rule), then overrides."""
        base: dict[str, Any] = {"variant": variant, "players": players}
        if variant == "circle":
            base.update(deck=52, first_bout_limit_5=False)
        base.update(overrides)
        return cls(**base)

    @classmethod
    def options_for(cls, variant: str) -> tuple[OptionSpec, ...]:
        """The options a host chooses at a ``variant`` table, each with the variant's default.

        >>> [o.name for o in Rules.options_for("podkidnoy")]
        ['players', 'teams', 'deck', 'throw_in', 'first_bout_limit_5', 'draws', 'redeal']
        >>> Rules.options_for("circle")[-1]
        OptionSpec(name='joker_last', kind='choice', choices=('defence_only', 'pass_on'), \
default='defence_only', needs=('jokers', 2))
        """
        if variant not in _OPTIONS:
            raise RulesError.of("unknown_variant", variant=variant)
        defaults = cls.for_variant(variant)
        return tuple(
            OptionSpec(
                name,
                "bool" if name in _FLAGS else "choice",
                (False, True) if name in _FLAGS else _CHOICES[name],
                getattr(defaults, name),
                _NEEDS.get(name),
            )
            for name in _OPTIONS[variant]
        )

    @property
    def first_five(self) -> bool:
        """Whether the "first discard: five cards" limit applies (never in circle)."""
        return self.first_bout_limit_5 and self.variant != "circle"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready options (every one is a number, a flag or a word: ``asdict``, which copies
        each value through its recursion, took four times as long, and a snapshot writes this at
        every move)."""
        return {name: getattr(self, name) for name in _OPTION_NAMES}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; unknown keys are refused. Options written before
        ``throw_in_waits`` existed (stored records, snapshots and exports) read as ``"holders"``,
        the rule they were played under, so they replay exactly."""
        unknown = sorted(set(data).difference(_OPTION_NAMES))
        if unknown:
            raise RulesError.of("unknown_options", names=", ".join(unknown))
        return cls(**{"throw_in_waits": "holders", **data})


#: The options' names in declaration order (what ``to_dict`` writes and ``from_dict`` knows).
_OPTION_NAMES: Final = tuple(f.name for f in fields(Rules))
