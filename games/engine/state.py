"""The game state a caller holds: the fields of :mod:`.data` and the public API.

Each variant has its class, chosen once when the game is made (as python-chess has a ``Board``
subclass per variant): :class:`~games.engine.bout.play.Podkidnoy`,
:class:`~games.engine.bout.play.Perevodnoy`, and for ``circle`` one per stage,
:class:`~games.engine.circle.stage1.CircleStage1` and
:class:`~games.engine.circle.stage2.CircleStage2` (a game changes to the second when the
leftovers are dealt, so a caller looks methods up on the state rather than keeping them
bound across actions). They answer what only the variant knows (the abstract methods of
:class:`~games.engine.data.GameData`): who may act, what is legal, what an action does. This
class adds what every game shares: checking an action before applying it, timeouts, views,
the snapshot and the position.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .actions import ATTACK, PASS, TAKE, Action
from .bout.table import table_mask
from .cards import sort_key
from .codec import decode, encode
from .data import GameData
from .errors import IllegalAction
from .events import Event
from .explain import why_illegal
from .phases import LEAD, OVER
from .position import read_position, write_position
from .result import Result
from .rules import Rules
from .visibility import View, build_view


class GameState(GameData):
    """A game in progress.  Build one with :func:`games.engine.new_game`, or restore it with
    :meth:`from_json` or :meth:`from_position`.

    >>> from games.engine import Deal, Rules, new_game
    >>> s = new_game(Rules(), seed="doc", deal=Deal(
    ...     hands=[["6S", "7S", "8S", "9S", "10S", "JS"], ["6H", "7H", "8H", "9H", "10H", "JH"]],
    ...     trump="6D", stock=[], dealer=1))
    >>> s.actors(), s.awaiting(), s.attack_limit
    ((0,), {0: 'lead'}, 5)
    >>> [str(e.kind) for e in s.apply(0, Action.parse("attack 6S"))]
    ['attack']
    >>> s.is_legal(1, Action.parse("cover 7H>6S"))
    False
    >>> s.verify(1, Action.parse("cover 7H>6S"))
    Traceback (most recent call last):
    ...
    games.engine.errors.IllegalAction: 7♥ does not beat 6♠
    >>> s.position()
    'podkidnoy seed=doc dealer=1 trump=6D hands=7S,8S,9S,10S,JS/6H,7H,8H,9H,10H,JH stock=6D \
table=6S attacker=0 actions=1'
    """

    __slots__ = ()

    #: The class of each (variant, stage): every variant's class enters itself when defined.
    _classes: ClassVar[dict[tuple[str, int], type[GameState]]] = {}

    def __init_subclass__(cls, *, variant: str, stage: int = 0, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        GameState._classes[(variant, stage)] = cls

    @staticmethod
    def class_for(rules: Rules, stage: int) -> type[GameState]:
        """The class of a ``rules.variant`` game in ``stage`` (``circle``: 1 or 2)."""
        return GameState._classes[(rules.variant, stage if rules.variant == "circle" else 0)]

    # ------------------------------------------------------------------ basics

    @property
    def n(self) -> int:
        """The number of seats (``players``)."""
        return self.players

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (see :meth:`result`)."""
        return self.phase == OVER

    def result(self) -> Result | None:
        """The result once the game is over, else None."""
        return self.game_result

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` ([] for a seat that may not act)."""
        return [Action.from_fast(f) for f in self.legal_fast(seat)]

    def verify(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` (saying why) unless ``seat`` may play ``action``."""
        err = why_illegal(self, seat, action.to_fast())
        if err is not None:
            raise err

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may play ``action`` now (:meth:`verify` says why not)."""
        return why_illegal(self, seat, action.to_fast()) is None

    def default_action(self, seat: int) -> Action:
        """What a timeout plays: lead the lowest card (non-trumps first), the defender
        takes, a thrower passes, the drawn card beats the lowest circle card it can."""
        legal = self.legal_fast(seat)
        if not legal or seat not in self.awaiting():
            raise IllegalAction.of("not_your_turn")
        for f in legal:
            if f[0] in (TAKE, PASS):
                return Action.from_fast(f)
        if self.phase == LEAD:
            key = sort_key(self.trump_suit)
            singles = [f for f in legal if f[0] == ATTACK and f[1].bit_count() == 1]
            best = min(singles, key=lambda f: key(f[1].bit_length() - 1))
            return Action.from_fast(best)
        return Action.from_fast(min(legal, key=lambda f: (f[2], f[1])))

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Play ``action`` for ``seat``; returns the public events.  An illegal action
        raises :class:`IllegalAction` and leaves the state unchanged."""
        fa = action.to_fast()
        err = why_illegal(self, seat, fa)
        if err is not None:
            raise err
        events: list[Event] = []
        self.apply_fast(seat, fa, events)
        return events

    # ------------------------------------------------------------------ views, JSON, position

    def view(self, seat: int) -> View:
        """What ``seat`` may see: its own hand, every public fact, counts of the rest."""
        return build_view(self, seat, full=False)

    def spectator_view(self) -> View:
        """What a spectator may see: no hand at all."""
        return build_view(self, None, full=False)

    def full_view(self) -> View:
        """Every card, for the replay after the game (and for tests)."""
        return build_view(self, None, full=True)

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (the snapshot, :mod:`.codec`);
        :meth:`from_json` restores it exactly."""
        return encode(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """The state :meth:`to_json` wrote (this format or the first one)."""
        return decode(data, GameState.class_for)

    def position(self) -> str:
        """The position in the notation of :mod:`.position`: one line that
        :meth:`from_position` turns back into a state that plays on identically."""
        return write_position(self)

    @classmethod
    def from_position(cls, text: str) -> GameState:
        """The state of a position written in the notation of :mod:`.position`."""
        return read_position(text, GameState.class_for)

    def places_of_cards(self) -> dict[str, int]:
        """Where every card is, as masks: the analysis board tells the cards of a set-up position
        that are in no zone, and the conformance tests check that no card is in two."""
        stock = 0
        for c in self.stock:
            stock |= 1 << c
        circle = 0
        for c in self.circle:
            circle |= 1 << c
        if self.center >= 0:
            circle |= 1 << self.center
        if self.drawn >= 0:
            circle |= 1 << self.drawn
        out = {f"hand{s}": h for s, h in enumerate(self.hands)}
        out.update(table=table_mask(self), stock=stock, discard=self.discard, circle=circle)
        return out
