"""The end of a bout and of the game (``docs/rules.md`` §3 "Bito", "Draw", "Out", "The fool",
"A draw", "Teams", "An end to every game"; §2 "The next attack").

Bito sends the table to the discard for good and lifts the 5-card limit; after a take the
defender picks everything up. Then the players draw up to 6 from the stock: the bout's leader
first, then clockwise, the final defender last. With the stock empty a player without cards
is out; players out in the same bout share a place. The game ends when at most one player
(in teams: one team) holds cards; if nobody does, ``draws`` makes it a draw, or else the
defender loses. After a bito the defender attacks next, after a take the player after them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ..data import GameData
from ..events import Event
from ..phases import OVER
from ..result import Result
from ..ring import CLOCKWISE, next_holding
from .table import table_mask

#: DRAW_ORDERS[n][leader][defender] = the seats in the order they draw: the leader first, then
#: clockwise, the defender last (every bout ends with a draw while the stock lasts).
DRAW_ORDERS: Final = tuple(
    tuple(tuple((*(t for t in ring if t != d), d) for d in range(len(rings))) for ring in rings)
    for rings in CLOCKWISE
)


def end_bout(s: GameData, bito: bool, ev: list[Event] | None) -> None:
    """The table goes to the discard (``bito``) or to the defender's hand."""
    d = s.defender
    table = table_mask(s)
    if bito:
        s.discard |= table
        s.bito_done = True
        nxt = d
    else:
        s.hands[d] |= table
        nxt = -1
    if ev is not None:
        ev.append(Event("bito" if bito else "took", d, count=table.bit_count()))
    bout_over(s, nxt, ev)


def bout_over(s: GameData, nxt: int, ev: list[Event] | None) -> None:
    """Clear the table, draw, find who is out, decide the game or start the next bout.
    ``nxt`` is the seat that should attack next, or -1 for "the player after the defender"."""
    d = s.defender
    s.attack_cards = []
    s.covers = []
    s.table_ranks = 0
    s.taking = False
    s.passed = 0
    s.shown = 0
    s.joker_covered = False
    s.round_order = ()
    s.round_position = -1
    hands = s.hands
    if s.stock:
        _draw(s, ev)
    s.out_this_bout = ()
    if not s.stock:
        newly = tuple([t for t in range(s.players) if not hands[t] and not s.out_mask >> t & 1])
        if newly:
            s.places.append(list(newly))
            for t in newly:
                s.out_mask |= 1 << t
                if ev is not None:
                    ev.append(Event("out", t, count=len(s.places)))
        s.out_this_bout = newly
        if check_over(s, d, ev):
            return
    if nxt < 0 or not hands[nxt]:
        nxt = next_holding(hands, d)
    s.start_bout(nxt, ev)


def _draw(s: GameData, ev: list[Event] | None) -> None:
    """Everybody draws up to 6: the leader first, then clockwise, the defender last."""
    hands = s.hands
    stock = s.stock
    out_mask = s.out_mask
    for t in DRAW_ORDERS[s.players][s.leader][s.defender]:
        if out_mask >> t & 1:
            continue
        need = 6 - hands[t].bit_count()
        if need <= 0:
            continue
        got = need if need < len(stock) else len(stock)
        hand = hands[t]
        for c in stock[-got:]:
            hand |= 1 << c
        hands[t] = hand
        del stock[-got:]
        if ev is not None:
            ev.append(Event("draw", t, count=got))
        if not stock:
            break


def check_over(s: GameData, d: int, ev: list[Event] | None) -> bool:
    """After a bout whose defender was ``d``: finish the game if it is decided."""
    if s.stock:  # nobody is out while the stock lasts
        return False
    hands = s.hands
    alive = [t for t in range(s.players) if hands[t]]
    drawn = s.out_this_bout
    if s.rules.teams:
        teams_alive = {t % 2 for t in alive}
        if len(teams_alive) == 2:
            return False
        if len(teams_alive) == 1:  # the team still holding cards loses
            loser = teams_alive.pop()
            # A partner who got out left one player holding cards: that player is the fool.
            fool = alive[0] if len(alive) == 1 else None
            finish(s, Result(s.places, fool, (loser, loser + 2)), ev)
        elif s.rules.draws:
            finish(s, Result(s.places, draw=True, reason="draw", drawn_seats=drawn), ev)
        else:
            _drop_from_last_place(s, d)
            finish(s, Result(s.places, None, (d % 2, d % 2 + 2)), ev)
        return True
    if len(alive) >= 2:
        return False
    if len(alive) == 1:
        finish(s, Result(s.places, alive[0]), ev)
    elif s.rules.draws:
        finish(s, Result(s.places, draw=True, reason="draw", drawn_seats=drawn), ev)
    else:
        _drop_from_last_place(s, d)
        finish(s, Result(s.places, d), ev)
    return True


def _drop_from_last_place(s: GameData, seat: int) -> None:
    last = s.places[-1]
    if seat in last:
        last.remove(seat)
        if not last:
            s.places.pop()


def finish(s: GameData, result: Result, ev: list[Event] | None) -> None:
    """The game is over with ``result``."""
    s.phase = OVER
    s.round_position = -1
    s.game_result = replace(result, places=[p[:] for p in result.places])
    if ev is not None:
        ev.append(Event("game_over", result.fool))


def finish_move_cap(s: GameData, ev: list[Event] | None) -> None:
    """``rules.max_actions`` reached: a draw among the players still holding cards."""
    holders = tuple(t for t in range(s.players) if s.hands[t])
    finish(s, Result(s.places, draw=True, reason="move_cap", drawn_seats=holders), ev)
