"""Actions and their one canonical text notation.

=================  ==========================================================
``attack 6S 6H``   a lead or a throw-in of one or more cards
``cover 7S>6S``    lay 7S on the attack card 6S (one cover per action)
``transfer 6D``    pass the attack on by laying cards of the attack rank
``show 6H``        pass it on by showing a trump of the attack rank
``take``           the defender takes (throw-ins may still follow)
``pass``           "nothing more from me for now" (reopened by any table change)
``redeal``         demand a redeal, showing five or six cards of one suit
``beat 9H>7H``     circle stage 1: the drawn card beats that circle card
=================  ==========================================================

Cards in ``attack``/``transfer`` are sorted by card index, so every action has one
spelling and ``Action.parse(str(a)) == a``.  Internally the engine works with
``FastAction`` tuples ``(kind, mask, target)``; ``Action`` is the boundary form, and
:class:`LegalMove` the form a view lists a seat's legal actions in (cards in notation, so
nothing downstream parses the notation back).

>>> a = Action.parse("attack 6h 6s")
>>> str(a)
'attack 6S 6H'
>>> str(Action.parse("cover 7S>6S")), Action.parse("take") == Action("take")
('cover 7S>6S', True)
>>> LegalMove.from_fast(Action.parse("cover 7S>6S").to_fast())
LegalMove(kind='cover', cards=('7S',), target='6S', notation='cover 7S>6S')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import CARD_NAMES, card_from_str, cards_of
from .errors import NotationError

# Fast action kinds (ints, for the hot path).
ATTACK: Final = 0
COVER: Final = 1
TRANSFER: Final = 2
SHOW: Final = 3
TAKE: Final = 4
PASS: Final = 5
REDEAL: Final = 6
BEAT: Final = 7

KIND_NAMES: Final = ("attack", "cover", "transfer", "show", "take", "pass", "redeal", "beat")
_KIND_CODES: Final = {name: i for i, name in enumerate(KIND_NAMES)}

#: ``(kind, mask, target)``: ``mask`` is the card set (attack/transfer/show) or the
#: single card bit (cover/beat); ``target`` the covered card, else -1.
FastAction = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Action:
    """One action in public form; ``str()`` gives the canonical notation."""

    kind: str
    cards: tuple[int, ...] = ()
    target: int | None = None

    def __str__(self) -> str:
        target = None if self.target is None else CARD_NAMES[self.target]
        return notation(self.kind, [CARD_NAMES[c] for c in self.cards], target)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the canonical notation (cards case-insensitive, any order)."""
        parts = text.split()
        if not parts:
            raise NotationError("empty action")
        kind = parts[0].lower()
        if kind not in _KIND_CODES:
            raise NotationError(
                f"unknown action {parts[0]!r}: use attack, cover, transfer, show, take, pass, redeal or beat"
            )
        args = parts[1:]
        try:
            if kind in ("cover", "beat"):
                if len(args) != 1 or args[0].count(">") != 1:
                    raise NotationError(f"write {kind} as '{kind} 7S>6S'")
                top, bottom = args[0].split(">")
                return cls(kind, (card_from_str(top),), card_from_str(bottom))
            if kind in ("take", "pass", "redeal"):
                if args:
                    raise NotationError(f"{kind} names no cards")
                return cls(kind)
            if not args:
                raise NotationError(f"{kind} needs at least one card")
            cards = sorted(card_from_str(a) for a in args)
        except NotationError:
            raise
        except ValueError as exc:
            raise NotationError(str(exc)) from exc
        if len(set(cards)) != len(cards):
            raise NotationError("a card appears twice")
        if kind == "show" and len(cards) != 1:
            raise NotationError("show names exactly one trump")
        return cls(kind, tuple(cards))

    def to_fast(self) -> FastAction:
        """The engine's internal tuple form."""
        mask = 0
        for c in self.cards:
            mask |= 1 << c
        return (_KIND_CODES[self.kind], mask, -1 if self.target is None else self.target)

    @classmethod
    def from_fast(cls, fast: FastAction) -> Action:
        kind, mask, target = fast
        return cls(KIND_NAMES[kind], tuple(cards_of(mask)), None if target < 0 else target)


def notation(kind: str, cards: Sequence[str], target: str | None) -> str:
    """The canonical text of an action from its parts (cards in notation, sorted)."""
    if target is not None:  # cover / beat: the card and what it beats
        return f"{kind} {cards[0]}>{target}"
    if cards:
        return kind + " " + " ".join(cards)
    return kind


@dataclass(frozen=True, slots=True)
class LegalMove:
    """A legal action as a view lists it: ``kind``, the ``cards`` it plays (notation, sorted),
    the ``target`` it covers or beats, and its canonical ``notation``."""

    kind: str
    cards: tuple[str, ...]
    target: str | None
    notation: str

    @classmethod
    def from_fast(cls, fast: FastAction) -> LegalMove:
        kind, mask, target = fast
        name = KIND_NAMES[kind]
        cards = tuple(CARD_NAMES[c] for c in cards_of(mask))
        covered = CARD_NAMES[target] if target >= 0 else None
        return cls(name, cards, covered, notation(name, cards, covered))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "kind": self.kind,
            "cards": list(self.cards),
            "target": self.target,
            "notation": self.notation,
        }
