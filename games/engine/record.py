"""Game records: the rules, the seed, the dealer and the actions; replay is exact.

>>> from games.engine import Rules, new_game
>>> rec = GameRecord(Rules(), seed="r", dealer=0)
>>> s = rec.replay()
>>> seat = s.actors()[0]
>>> a = s.default_action(seat)
>>> _ = s.apply(seat, a); rec.actions.append((seat, str(a)))
>>> GameRecord.from_json(rec.to_json()).replay().to_json() == s.to_json()
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import card_str
from .deal import Deal
from .events import Event
from .rules import Rules
from .start import new_game
from .state import GameState


def _deal_to_json(deal: Deal) -> dict[str, Any]:
    def cs(cards: Any) -> list[str]:
        return [c if isinstance(c, str) else card_str(c) for c in cards]

    def one(c: Any) -> str | None:
        return None if c is None else (c if isinstance(c, str) else card_str(c))

    return {
        "hands": [cs(h) for h in deal.hands] if deal.hands is not None else None,
        "trump": one(deal.trump),
        "stock": cs(deal.stock),
        "dealer": deal.dealer,
        "trump_suit": deal.trump_suit,
        "first_attacker": deal.first_attacker,
        "circle": cs(deal.circle) if deal.circle is not None else None,
        "center": one(deal.center),
        "stage": deal.stage,
        "discard": cs(deal.discard),
        "bito_done": deal.bito_done,
    }


@dataclass
class GameRecord:
    """``actions`` are ``(seat, notation)`` pairs in the order they were applied.
    ``deal`` (optional) records a scripted deal instead of the seeded one."""

    rules: Rules
    seed: str
    dealer: int
    actions: list[tuple[int, str]] = field(default_factory=list)
    deal: Deal | None = None

    def start(self, events: list[Event] | None = None) -> GameState:
        """The state before the first action (``events`` gets the deal's events)."""
        return new_game(self.rules, seed=self.seed, dealer=self.dealer, deal=self.deal, events=events)

    def replay(self) -> GameState:
        """The state after every recorded action (raises IllegalAction on a bad record)."""
        state = self.start()
        for seat, text in self.actions:
            state.apply(seat, Action.parse(text))
        return state

    def states(self) -> Iterator[GameState]:
        """The start state and the state after each action (each a separate object)."""
        state = self.start()
        yield state.clone()
        for seat, text in self.actions:
            state.apply(seat, Action.parse(text))
            yield state.clone()

    def events(self) -> list[list[Event]]:
        """The events of the deal, then of each action: the move log."""
        first: list[Event] = []
        state = self.start(first)
        out = [first]
        for seat, text in self.actions:
            out.append(state.apply(seat, Action.parse(text)))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "dealer": self.dealer,
            "actions": [[seat, text] for seat, text in self.actions],
            "deal": _deal_to_json(self.deal) if self.deal is not None else None,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameRecord:
        deal = Deal(**d["deal"]) if d.get("deal") is not None else None
        return cls(
            rules=Rules.from_dict(d["rules"]),
            seed=d["seed"],
            dealer=d["dealer"],
            actions=[(int(s), str(t)) for s, t in d["actions"]],
            deal=deal,
        )
