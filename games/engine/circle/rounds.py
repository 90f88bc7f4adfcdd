"""``circle`` stage 2: the throw-in rounds (``docs/rules.md`` §5 "Throw-ins go round in turn",
"After a take") [004].

Once the defender has covered everything (or takes), each thrower clockwise from the
defender's left gets one turn: they throw in any number of cards that fit, one after another,
and the turn moves on when they pass, reach the limit or have no cards left; a seat is skipped
only on public facts (no cards, no room), never for holding nothing that fits, so the round's
turns tell nobody what a thrower holds (``docs/rules.md`` §3 "Waiting for the throwers").
At the round's end the defender covers the new cards (the
next round follows), picks everything up after a take, or the bout is bito when the round
added nothing.
"""

from __future__ import annotations

from ..bout.end import end_bout
from ..bout.throwers import room_to_throw
from ..data import GameData
from ..events import Event


def round_order_for(defender: int, players: int, throwers: tuple[int, ...]) -> tuple[int, ...]:
    """The throwers in round order: clockwise from the defender's left."""
    ring = ((defender + i) % players for i in range(1, players))
    return tuple(t for t in ring if t in throwers)


def start_round(s: GameData, ev: list[Event] | None) -> None:
    """The defender has covered everything (or takes): a round of throw-ins."""
    s.round_order = round_order_for(s.defender, s.players, s.throwers)
    s.round_position = -1
    s.round_added = False
    advance_round(s, ev)


def advance_round(s: GameData, ev: list[Event] | None) -> None:
    """The round's turn moves to the next seat that could throw in; at the round's end the
    defender covers, picks up, or the bout is bito."""
    order = s.round_order
    pos = s.round_position + 1
    hands = s.hands
    if s.rules.throw_in_waits == "holders":  # a game recorded under the earlier rule
        room, fits = len(s.attack_cards) < s.attack_limit, s.table_ranks
    else:
        room, fits = room_to_throw(s), -1
    while pos < len(order):
        if room and hands[order[pos]] & fits:
            s.round_position = pos
            return
        pos += 1
    s.round_position = -1
    if s.taking:
        end_bout(s, False, ev)
    elif s.round_added and -1 in s.covers:
        return  # the defender covers the new cards
    else:
        end_bout(s, True, ev)
