"""How a game ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game.

    ``places``: seats in finishing order, players out in the same bout share a place
    (the fool and a losing team's remaining players are not listed); ``fool``: the last
    player holding cards (None in a draw; in a team game the losing team's one player still
    holding cards, None when both of them are); ``losing_team``: the two seats of the losing
    team; ``draw``: nobody lost; ``reason``: ``normal``, ``draw``,
    ``move_cap`` or ``jokers_only``.
    """

    places: list[list[int]] = field(default_factory=list)
    fool: int | None = None
    losing_team: tuple[int, int] | None = None
    draw: bool = False
    reason: str = "normal"
    drawn_seats: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "places": [list(p) for p in self.places],
            "fool": self.fool,
            "losing_team": list(self.losing_team) if self.losing_team else None,
            "draw": self.draw,
            "reason": self.reason,
            "drawn_seats": list(self.drawn_seats),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        lt = d.get("losing_team")
        return cls(
            places=[list(p) for p in d["places"]],
            fool=d["fool"],
            losing_team=(lt[0], lt[1]) if lt else None,
            draw=d["draw"],
            reason=d["reason"],
            drawn_seats=tuple(d.get("drawn_seats", ())),
        )
