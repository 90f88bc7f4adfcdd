"""What happened, in public terms: enough to write a move log without diffing states.

Kinds: ``attack`` (cards; ``count`` 1 marks a bout's lead), ``cover`` (cards=(cover,),
target), ``transfer``, ``show``, ``take`` (declared), ``pass``, ``took`` (count),
``bito`` (count), ``draw`` (count — never which cards), ``out`` (place), ``redeal``
(the shown cards), ``skip`` (a joker-only player's attack passes by), ``game_over``;
circle stage 1: ``turn_up`` (the drawn card, face up), ``beat`` (cards=(drawn,),
target), ``to_circle`` (the drawn card joins the circle), ``trump_taken``,
``leftovers`` (count per seat), ``stage2`` (seat = the first attacker).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import card_str


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
