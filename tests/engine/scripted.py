"""Scripted positions for the rule tests (``test_s*.py``): build a table from explicit
cards, play moves written ``"seat: action"``, and read why an illegal move is refused.

Shared so that every section's tests build their positions the same way.
"""

from __future__ import annotations

import pytest

from games.engine import Action, Deal, Event, IllegalAction, Rules, new_game
from games.engine.state import GameState


def game(
    hands: list[list[str]],
    trump: str | None = None,
    stock: tuple[str, ...] = (),
    variant: str = "podkidnoy",
    **deal: object,
) -> GameState:
    """A scripted table: exact hands, the turned trump under the stock (top first), or no
    stock at all and ``trump_suit=``; table options and ``Deal`` fields as keywords."""
    options = {k: deal.pop(k) for k in list(deal) if k in Rules.__dataclass_fields__}
    rules = Rules.for_variant(variant, players=len(hands), **options)
    return new_game(rules, seed="scripted", deal=Deal(hands=hands, trump=trump, stock=stock, **deal))  # type: ignore[arg-type]


def stage2(hands: list[list[str]], first: int | None = 0, **options: object) -> GameState:
    """A scripted ``circle`` stage 2 (no stock), trump ♦, ``first`` leading; table
    options as keywords."""
    rules = Rules.for_variant("circle", players=len(hands), **options)
    return new_game(
        rules, seed="scripted", deal=Deal(hands=hands, trump_suit="D", stage=2, first_attacker=first)
    )


def play(state: GameState, *moves: str) -> list[Event]:
    """Apply moves written ``"seat: action"``; return every event.

    A script leaves out the passes of throwers who have nothing to throw (``docs/rules.md``
    §3 "Waiting for the throwers": they are awaited all the same, but a rule test about
    something else need not spell them out): after each move, every awaited thrower whose only
    legal action is the pass passes, in seat order. A thrower who holds a card that could go in
    is never passed for: the script says what they do. :func:`play_exactly` adds nothing."""
    events: list[Event] = []
    for move in moves:
        seat, text = move.split(":", 1)
        events += state.apply(int(seat), Action.parse(text))
        while _pass_idle_throwers(state, events):
            pass
    return events


def play_exactly(state: GameState, *moves: str) -> list[Event]:
    """Apply moves written ``"seat: action"`` and nothing else; return every event."""
    events: list[Event] = []
    for move in moves:
        seat, text = move.split(":", 1)
        events += state.apply(int(seat), Action.parse(text))
    return events


def _pass_idle_throwers(state: GameState, events: list[Event]) -> bool:
    """Pass for every awaited thrower whose only legal action is the pass; whether any did."""
    idle = [
        t
        for t, code in sorted(state.awaiting().items())
        if code in ("throw_in", "take_more") and [str(a) for a in state.legal_actions(t)] == ["pass"]
    ]
    for t in idle:
        if t in state.awaiting():
            events += state.apply(t, Action.parse("pass"))
    return bool(idle)


def refusal(state: GameState, move: str) -> str:
    """The reason an illegal ``"seat: action"`` is refused (the state stays unchanged)."""
    seat, text = move.split(":", 1)
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(int(seat), Action.parse(text))
    assert state.to_json() == before
    return str(err.value)


def all_hands(state: GameState) -> list[list[str]]:
    """Every hand in notation, as the full view shows them (a test may look)."""
    hands = state.full_view().hands
    assert hands is not None
    return hands
