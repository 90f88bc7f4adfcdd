"""Puzzles found in a finished two-player match: pure Python over its :class:`GameRecord`.

Once the stock is empty both hands are known to both players, so each position is one of perfect
information and the exact endgame solver (``games.bots.endgame.solve``) can prove what every
legal move is worth: whether it keeps its player from being the fool. A position is a puzzle when
the moves that keep the player safe are one move, or one set of equivalent moves (same kind, same
ranks, same target: choices the solver cannot tell apart), and every other move loses. The puzzle
is the whole line until nothing the player does matters any more: after each right move the
opponent's reply is the solver's best defence, and the player's moves that are the only legal
ones are played for them. A position the solver cannot prove within its node budget is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.bots.endgame import solve
from games.engine import Action, FastAction, GameRecord, GameState
from games.engine.actions import ATTACK, COVER, SHOW, TAKE, TRANSFER, fast_str
from games.engine.cards import cards_of, rank_of, suit_of
from games.engine.phases import OVER

#: Nodes one solver call may search; a proof needing more is left alone.
NODE_BUDGET = 4_000
#: Positions with more cards in hand than this are left alone: small endgames prove fast and make
#: readable puzzles.
MAX_CARDS = 9
#: Positions judged per match at most, so one long match cannot hold the miner up.
MAX_JUDGED = 6
#: Plies of the player's own consecutive moves expanded when the solver's answer alone is not a
#: proof (``solve`` answers ``None`` both for "every move loses" and "out of budget").
EXPAND_DEPTH = 4
#: The longest line a puzzle may have, in the player's decisions.
MAX_STEPS = 12

THEMES = ("transfer", "throw_in", "saving_trump", "taking", "endgame")


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of the solver's seat: the moves that keep it safe (``accept``, notation), the
    one the line plays (``play``), and the moves that follow until its next decision
    (``replies``: ``(seat, notation)``, the opponent's best defence and the player's only moves)."""

    accept: tuple[str, ...]
    play: str
    replies: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class Found:
    """A proven puzzle: the position after ``ply`` actions of the match, the seat to solve it, the
    line, its themes, and whether the player in the game chose a losing move there."""

    ply: int
    seat: int
    position: str
    steps: tuple[Step, ...]
    themes: tuple[str, ...]
    blunder: bool
    played: str = ""
    losing: tuple[str, ...] = field(default=())


def _mover(s: GameState) -> int:
    """The seat the solver lets move first (the defender answers before a throw-in)."""
    return next(iter(s.awaiting()))


def _after(s: GameState, seat: int, f: FastAction) -> GameState:
    child = s.clone()
    child.apply_fast(seat, f)
    return child


def safe(s: GameState, me: int, depth: int = EXPAND_DEPTH) -> bool | None:
    """Whether ``me`` is proven not to be the fool from ``s`` with best play on both sides:
    True, False, or None when the budget did not suffice for a proof."""
    if s.phase == OVER:
        r = s.game_result
        return r is None or r.draw or r.fool != me
    if depth < 0:
        return None
    mover = _mover(s)
    legal = s.legal_fast(mover)
    answer = solve(s, mover, legal, node_budget=NODE_BUDGET)
    if mover == me:
        if answer is not None:
            return True
        values = [safe(_after(s, me, f), me, depth - 1) for f in legal]
        return False if values and all(v is False for v in values) else None
    if answer is not None:
        return answer[1] < 1.0
    values = [safe(_after(s, mover, f), me, depth - 1) for f in legal]
    return True if values and all(v is True for v in values) else None


def _equivalent(s: GameState, moves: list[FastAction]) -> bool:
    """Whether the moves differ only by cards the position cannot tell apart: same kind, same
    ranks, same target, and as many trumps."""

    def shape(f: FastAction) -> tuple[object, ...]:
        cards = cards_of(f[1])
        trumps = sum(1 for c in cards if suit_of(c) == s.trump_suit)
        return (f[0], tuple(sorted(rank_of(c) for c in cards)), f[2], trumps)

    return len({shape(f) for f in moves}) == 1


def judge(s: GameState, me: int) -> tuple[list[FastAction], list[FastAction]] | None:
    """The safe and the losing moves of ``me`` in ``s``, or None when one could not be proved."""
    good: list[FastAction] = []
    bad: list[FastAction] = []
    for f in s.legal_fast(me):
        value = safe(_after(s, me, f), me)
        if value is None:
            return None
        (good if value else bad).append(f)
    return good, bad


def _defence(s: GameState, seat: int) -> FastAction:
    """The opponent's best move by the solver; the first legal move when every move loses."""
    legal = s.legal_fast(seat)
    answer = solve(s, seat, legal, node_budget=NODE_BUDGET)
    return answer[0] if answer is not None else legal[0]


def line(s: GameState, me: int, first: tuple[list[FastAction], list[FastAction]]) -> list[Step] | None:
    """The puzzle's line from ``s``: each of ``me``'s decisions until the result is forced (every
    legal move safe) or the game is over. None when a later decision could not be proved or is no
    longer a single choice (two different ways to win: not a puzzle to check move by move)."""
    steps: list[Step] = []
    verdict: tuple[list[FastAction], list[FastAction]] | None = first
    s = s.clone()
    while verdict is not None and len(steps) < MAX_STEPS:
        good, bad = verdict
        if not bad:
            break
        if not good or not _equivalent(s, good):
            return None
        play = good[0]
        s.apply_fast(me, play)
        replies: list[tuple[int, str]] = []
        verdict = None
        while s.phase != OVER:
            mover = _mover(s)
            legal = s.legal_fast(mover)
            if mover == me and len(legal) > 1:
                verdict = judge(s, me)
                if verdict is None:
                    return None
                break
            f = legal[0] if mover == me else _defence(s, mover)
            s.apply_fast(mover, f)
            replies.append((mover, fast_str(f)))
        steps.append(Step(tuple(fast_str(f) for f in good), fast_str(play), tuple(replies)))
    return steps or None


def themes(s: GameState, me: int, steps: list[Step]) -> tuple[str, ...]:
    """What the solution turns on, read from its moves: a transfer, a throw-in, a take while a
    cover was there, a trump kept back while a trump move lost."""
    found: list[str] = []
    state = s.clone()
    for step in steps:
        action = Action.parse(step.play)
        fast = action.to_fast()
        legal = state.legal_fast(me)
        if fast[0] in (TRANSFER, SHOW):
            found.append("transfer")
        if fast[0] == ATTACK and state.attack_cards:
            found.append("throw_in")
        if fast[0] == TAKE and any(f[0] == COVER for f in legal):
            found.append("taking")
        mine_trumps = any(suit_of(c) == state.trump_suit for c in cards_of(fast[1]))
        if not mine_trumps and any(
            f[0] == fast[0]
            and fast_str(f) not in step.accept
            and any(suit_of(c) == state.trump_suit for c in cards_of(f[1]))
            for f in legal
        ):
            found.append("saving_trump")
        state.apply(me, action)
        for seat, text in step.replies:
            state.apply(seat, Action.parse(text))
    ordered = tuple(t for t in THEMES if t in found)
    return ordered or ("endgame",)


def mine(record: GameRecord) -> Found | None:
    """The best puzzle of a finished two-player match: the first position where the player chose
    a losing move, else the first puzzle of the match; None when there is none (or the match is
    not for two)."""
    if record.rules.players != 2 or record.rules.variant == "circle":
        return None
    first: Found | None = None
    judged = 0
    state = record.start()
    for ply, (seat, text) in enumerate(record.actions):
        if (
            judged < MAX_JUDGED
            and not state.stock
            and state.phase != OVER
            and sum(len(cards_of(h)) for h in state.hands) <= MAX_CARDS
            and _mover(state) == seat
            and len(state.legal_fast(seat)) > 1
        ):
            judged += 1
            found = _puzzle(state, seat, ply, text)
            if found is not None and found.blunder:
                return found
            first = first or found
        state.apply(seat, Action.parse(text))
    return first


def _puzzle(state: GameState, seat: int, ply: int, played: str) -> Found | None:
    verdict = judge(state, seat)
    if verdict is None or not verdict[0] or not verdict[1]:
        return None
    steps = line(state, seat, verdict)
    if steps is None:
        return None
    losing = tuple(fast_str(f) for f in verdict[1])
    return Found(
        ply=ply,
        seat=seat,
        position=state.position(),
        steps=tuple(steps),
        themes=themes(state, seat, steps),
        blunder=played in losing,
        played=played,
        losing=losing,
    )
