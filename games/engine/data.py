"""The game's state, declared once: every field with its type, its blank value, how a copy
takes it and how a snapshot stores it.

One declaration drives the rest (as pokerkit's ``State`` does): the defaults are the blank
state of a new game; :meth:`GameData.clone` is generated from the fields; the snapshot format
(:mod:`.codec`) writes each field by its ``store`` kind under its own name (or the ``key`` it
was stored under before a rename, so stored snapshots read the same). Fields marked
``derived`` are not stored: ``__post_init__`` computes them from the others.

Representation (for speed): cards are ints and hands int bitmasks (:mod:`.cards`); the table is
two parallel lists, ``attack_cards`` and ``covers`` (the covering card, or -1);
``table_ranks`` is the mask of every card sharing a rank with a table card, so the possible
throw-ins of a hand are ``hand & table_ranks``; the stock is a list, bottom first (the
turned-up trump is ``stock[0]``), drawn from the end. Seat sets (``passed``, ``out_mask``) are
bitmasks of seats.

>>> from games.engine import Rules, new_game
>>> s = new_game(Rules(), seed="data")
>>> c = s.clone()
>>> c.hands is not s.hands and c.hands == s.hands and c.rules is s.rules
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .actions import FastAction
from .cards import BEATERS, ranks_of
from .errors import IllegalAction
from .events import Event
from .phases import LEAD
from .result import Result
from .rules import Rules


def _kind(store: str, copy: str = "share", key: str = "") -> dict[str, str]:
    """A field's metadata: ``store`` names its snapshot kind (:mod:`.codec`; ``derived``: not
    stored); ``copy`` says how a clone takes it: ``share`` (an immutable value), ``list`` or
    ``lists`` (a list of lists); ``key``, when given, is the snapshot's name for a field renamed
    since (snapshots written before, and processes still on the old code, keep reading it)."""
    return {"store": store, "copy": copy, "key": key}


@dataclass(slots=True, eq=False, repr=False)
class GameData(ABC):
    """Every field of a game (see the module docstring for the representation), and what
    the class of each variant answers about it (the abstract methods below: one class per
    variant, per stage in ``circle``, chosen when the game is made)."""

    #: Whether any one-rank set of cards within the limit is a lead (not in ``circle`` stage 2).
    one_rank_leads: ClassVar[bool]

    rules: Rules = field(metadata=_kind("rules"))
    seed: str = field(metadata=_kind("text"))
    dealer: int = field(metadata=_kind("int"))
    #: The number of seats (``rules.players``).
    players: int = field(default=0, init=False, metadata=_kind("derived"))
    trump_suit: int = field(default=0, metadata=_kind("int"))
    #: The card that showed the trump (-1 when a scripted deal names only the suit).
    trump_card: int = field(default=-1, metadata=_kind("card"))
    #: beaters[attack card] = mask of the cards that beat it under this trump.
    beaters: tuple[int, ...] = field(default=(), init=False, metadata=_kind("derived"))
    hands: list[int] = field(default_factory=list, metadata=_kind("hands", "list"))
    stock: list[int] = field(default_factory=list, metadata=_kind("cards", "list"))
    discard: int = field(default=0, metadata=_kind("mask"))
    attack_cards: list[int] = field(default_factory=list, metadata=_kind("cards", "list"))
    covers: list[int] = field(default_factory=list, metadata=_kind("covers", "list"))
    table_ranks: int = field(default=0, init=False, metadata=_kind("derived"))
    #: The seats allowed to throw in this bout, attacker first (fixed when the bout begins or
    #: is transferred).
    throwers: tuple[int, ...] = field(default=(), metadata=_kind("seats"))
    attacker: int = field(default=-1, metadata=_kind("int"))
    defender: int = field(default=-1, metadata=_kind("int"))
    #: Who led the bout (the draw starts with them, even after a transfer).
    leader: int = field(default=-1, metadata=_kind("int"))
    #: The cards the defender held when the bout began (or at the transfer).
    defender_start: int = field(default=0, metadata=_kind("int"))
    #: The most attack cards this bout may hold now, the lead included (``bout/limits.py``).
    attack_limit: int = field(default=0, metadata=_kind("int"))
    phase: int = field(default=LEAD, metadata=_kind("phase"))
    taking: bool = field(default=False, metadata=_kind("bool"))
    #: Throwers who passed since the last change on the table.
    passed: int = field(default=0, metadata=_kind("seat_mask"))
    #: Whether the game's first bito has happened (it lifts the 5-card limit).
    bito_done: bool = field(default=False, metadata=_kind("bool"))
    #: The finishing order: seats out in the same bout share a place.
    places: list[list[int]] = field(default_factory=list, metadata=_kind("places", "lists"))
    out_mask: int = field(default=0, metadata=_kind("seat_mask"))
    out_this_bout: tuple[int, ...] = field(default=(), metadata=_kind("seats"))
    actions_played: int = field(default=0, metadata=_kind("int"))
    #: Whether the game's first card has been laid (no redeal after it).
    opened: bool = field(default=False, metadata=_kind("bool"))
    redeals: int = field(default=0, metadata=_kind("int"))
    #: Trumps shown this bout to transfer (each may be shown once).
    shown: int = field(default=0, metadata=_kind("mask"))
    #: How the game ended (:meth:`GameState.result`); "outcome" is one seat's word.
    game_result: Result | None = field(default=None, metadata=_kind("result", key="outcome"))
    joker_covered: bool = field(default=False, metadata=_kind("bool"))
    #: 0 outside ``circle``; 1 or 2 for its stages.
    stage: int = field(default=0, metadata=_kind("int"))
    circle: list[int] = field(default_factory=list, metadata=_kind("cards", "list"))
    #: ``circle`` stage 1: the trump card under the stock, -1 once taken.
    center: int = field(default=-1, metadata=_kind("card"))
    #: ``circle`` stage 1: the drawn card waiting to beat a circle card.
    drawn: int = field(default=-1, metadata=_kind("card"))
    stage1_turn: int = field(default=-1, metadata=_kind("int"))
    #: The number of cards the bout was led with.
    lead_size: int = field(default=0, metadata=_kind("int"))
    #: ``circle`` stage 2: the throwers of the round in turn order, and the index of the one
    #: whose turn it is (-1: no round under way).
    round_order: tuple[int, ...] = field(default=(), metadata=_kind("seats"))
    round_position: int = field(default=-1, metadata=_kind("int"))
    round_added: bool = field(default=False, metadata=_kind("bool"))
    #: The lowest trump shown for the first attack (-1 when nobody held one).
    opening_trump: int = field(default=-1, metadata=_kind("card"))

    def __post_init__(self) -> None:
        self.players = self.rules.players
        if not self.hands:
            self.hands = [0] * self.players
        self.beaters = BEATERS[(self.trump_suit, self.rules.joker_beats)]
        self.table_ranks = ranks_of(self.attack_cards) | ranks_of(self.covers)

    if TYPE_CHECKING:

        def clone(self) -> Self:
            """A copy sharing nothing mutable."""

    @abstractmethod
    def actors(self) -> tuple[int, ...]:
        """Seats that may act now (several with ``throw_in="all"``), in seat order."""

    @abstractmethod
    def awaiting(self) -> dict[int, str]:
        """Seat -> what the game waits for; only seats whose action it needs to go on.

        Codes (:data:`games.engine.phases.AWAITING_CODES`): ``lead`` (the attacker leads),
        ``cover`` (the defender covers, transfers or takes), ``throw_in`` (throw in or pass;
        bito waits for every pass), ``take_more`` (the defender takes: throw in more or
        pass), ``beat`` (circle stage 1: choose which circle card the drawn card beats).
        Optional actions (a redeal, a throw-in while cards are still uncovered) are in
        :meth:`actors` but not awaited.
        """

    def first_awaited(self) -> int:
        """The first seat of :meth:`awaiting` (-1 when the game waits for nobody): the seat a
        search plays next. A variant answers it without building the mapping, as a playout
        asks it at every action."""
        return next(iter(self.awaiting()), -1)

    @abstractmethod
    def legal_fast(self, seat: int) -> list[FastAction]:
        """Every legal action of ``seat`` in the fast tuple form ([] if it may not act)."""

    @abstractmethod
    def apply_fast(self, seat: int, fa: FastAction, events: list[Event] | None = None) -> None:
        """Apply a legal fast action without checking it (bots and playouts)."""

    @abstractmethod
    def allows(self, seat: int, fa: FastAction) -> bool:
        """Whether ``fa`` is legal, including the leads and throw-ins of several cards that
        :meth:`legal_fast` does not list one by one."""

    @abstractmethod
    def refusal(self, seat: int, fa: FastAction) -> IllegalAction | None:
        """Why ``seat`` may not play ``fa``, after the refusals every variant shares
        (:mod:`.explain`); None for a legal action."""

    @abstractmethod
    def start_bout(self, attacker: int, ev: list[Event] | None) -> None:
        """``attacker`` (who holds cards) is to lead the next bout."""

    def draw_on(self, ev: list[Event] | None) -> None:
        """``circle`` stage 1 only: the seat in turn draws, and play goes on through the draws
        nobody chooses to the next choice (how a position written at a seat about to draw is
        read); no other game ever waits for a draw."""
        raise TypeError(f"a {self.rules.variant} game in stage {self.stage} has no draw")


def _clone_function(cls: type) -> Callable[[GameData], GameData]:
    """``clone`` written out from the fields, as :mod:`dataclasses` writes ``__init__``: a
    search bot clones a state per sample, and straight-line code is several times faster
    than a loop over the fields."""
    copies = {"share": "s.{0}", "list": "s.{0}[:]", "lists": "[x[:] for x in s.{0}]"}
    lines = [f"    c.{f.name} = " + copies[f.metadata["copy"]].format(f.name) for f in fields(cls)]
    source = "def clone(s):\n    c = new(s.__class__)\n" + "\n".join(lines) + "\n    return c\n"
    namespace: dict[str, Any] = {"new": object.__new__}
    exec(source, namespace)
    clone: Callable[[GameData], GameData] = namespace["clone"]
    clone.__doc__ = "A copy sharing nothing mutable (the lists are copied, the rest is shared)."
    return clone


setattr(GameData, "clone", _clone_function(GameData))  # noqa: B010 (mypy sees the stub above)

#: The fields a snapshot stores, in declaration order: the field, its key in a snapshot, its kind.
STORED: tuple[tuple[str, str, str], ...] = tuple(
    (f.name, f.metadata["key"] or f.name, f.metadata["store"])
    for f in fields(GameData)
    if f.metadata["store"] != "derived"
)
