"""What happened, in public terms: enough to write a move log without diffing states.

Kinds (:data:`EVENT_KINDS`): ``attack`` (cards; ``count`` 1 marks a bout's lead), ``cover``
(cards=(cover,), target), ``transfer``, ``show``, ``take`` (declared), ``pass``, ``took``
(count), ``bito`` (count), ``draw`` (count — never which cards), ``out`` (place), ``redeal``
(the shown cards), ``skip`` (a joker-only player's attack passes by), ``game_over``; circle
stage 1: ``turn_up`` (the drawn card, face up), ``beat`` (cards=(drawn,), target),
``to_circle`` (the drawn card joins the circle), ``trump_taken``, ``leftovers`` (count per
seat), ``stage2`` (seat = the first attacker).

>>> e = Event("cover", 1, (20,), 16)
>>> e.to_dict()
{'kind': 'cover', 'seat': 1, 'cards': ['7S'], 'target': '6S'}
>>> Event.from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import card_from_str, card_str

EVENT_KINDS: Final = (
    "attack",
    "cover",
    "transfer",
    "show",
    "take",
    "pass",
    "took",
    "bito",
    "draw",
    "out",
    "redeal",
    "skip",
    "game_over",
    "turn_up",
    "beat",
    "to_circle",
    "trump_taken",
    "leftovers",
    "stage2",
)


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    seat: int | None
    cards: tuple[int, ...] = ()
    target: int | None = None
    count: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, cards in notation."""
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.cards:
            d["cards"] = [card_str(c) for c in self.cards]
        if self.target is not None:
            d["target"] = card_str(self.target)
        if self.count:
            d["count"] = self.count
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """The event :meth:`to_dict` wrote (cards in notation)."""
        target = data.get("target")
        seat = data.get("seat")
        return cls(
            str(data["kind"]),
            None if seat is None else int(seat),
            tuple(card_from_str(c) for c in data.get("cards", ())),
            None if target is None else card_from_str(target),
            int(data.get("count", 0) or 0),
        )
