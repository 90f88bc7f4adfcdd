"""Single and double elimination brackets as data, and their state as a pure function of results.

A bracket is planned once, when the tournament starts: :func:`single_elimination` and
:func:`double_elimination` return a :class:`BracketPlan`, a tuple of :class:`MatchSlot` in an
order where every slot comes after the slots that feed it. Each slot says where its two sides come
from (a seed, the winner of a slot, the loser of a slot) and where its winner and loser go, so the
site can store one row per slot and draw the tree (``section``, ``round`` and ``index`` are the
column and the line of the picture).

The site stores only what happened: the winner of each finished slot. :func:`bracket_state`
recomputes everything else from the plan and those winners -- who plays in each slot, which slots
are ready to start, which are byes, the champion. Because the state is derived, never advanced in
place, two matches that end at the same moment cannot move a player twice: whichever transaction
commits second just sees a state where both winners are known.

Byes: the bracket is the next power of two, seeds beyond the field are empty, and the 1-vs-N
layout (:func:`~tournaments.formats.favourites.bracket_seed_positions`) puts them against the top seeds. A
slot with one empty side is a bye (its player goes through without playing and has no loser); a
slot with two empty sides is void (possible in the losers bracket, fed by two first-round byes).

Double elimination: losers of winners-bracket round ``r`` drop into the losers bracket, which
alternates "drop-in" rounds (survivors meet the new drop-ins) and "consolidation" rounds
(survivors meet each other). Drop-ins enter in reversed order every other round so two players
who just met do not meet again at once. The grand final (``GF``) sets the winners-bracket champion
(side 0, no loss yet) against the losers-bracket champion (side 1, one loss); if side 1 wins, both
have one loss and the reset (``GF2``) decides. Otherwise ``GF2`` is void.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from tournaments.formats.favourites import PlayerId, bracket_seed_positions, bracket_size

SlotId = str
"""A slot's stable name: ``W2-3`` (winners round 2, line 3), ``L1-1``, ``GF``, ``GF2``, ``3P``."""


class Section(StrEnum):
    """The part of the picture a slot belongs to."""

    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    THIRD_PLACE = "third_place"


class Format(StrEnum):
    """Single elimination (out after one lost match) or double (out after two)."""

    SINGLE = "single"
    DOUBLE = "double"


@dataclass(frozen=True, slots=True)
class Seed:
    """A side filled by the player with this seed (1 = favourite); empty past the field."""

    seed: int


@dataclass(frozen=True, slots=True)
class WinnerOf:
    """A side filled by whoever wins ``slot`` (or goes through it on a bye)."""

    slot: SlotId


@dataclass(frozen=True, slots=True)
class LoserOf:
    """A side filled by whoever loses ``slot``; empty if that slot was a bye."""

    slot: SlotId


Source = Seed | WinnerOf | LoserOf


@dataclass(frozen=True, slots=True)
class MatchSlot:
    """One match of the bracket, before anyone has played.

    ``winner_to`` / ``loser_to`` name the slot and side (0 = top, 1 = bottom) the player goes to;
    ``None`` means the winner is done (a final) or the loser is out. ``stage`` is the wave the
    slot can be played in (one more than the latest slot feeding it); it orders the picture's
    columns and decides shared places in :func:`final_ranking`. ``reset`` marks ``GF2``.
    """

    id: SlotId
    section: Section
    round: int
    index: int
    stage: int
    sources: tuple[Source, Source]
    winner_to: tuple[SlotId, int] | None = None
    loser_to: tuple[SlotId, int] | None = None
    reset: bool = False


@dataclass(frozen=True, slots=True)
class BracketPlan:
    """A whole bracket: ``seeds[i]`` is the player with seed ``i + 1``.

    A plan is a pure function of its format, seeds and ``third_place`` (see :func:`plan_bracket`),
    so the site need only store those three and rebuild the same slots whenever it needs them.
    """

    format: Format
    size: int
    seeds: tuple[PlayerId, ...]
    slots: tuple[MatchSlot, ...]
    third_place: bool

    def slot(self, slot_id: SlotId) -> MatchSlot:
        for slot in self.slots:
            if slot.id == slot_id:
                return slot
        raise KeyError(slot_id)


class Status(StrEnum):
    WAITING = "waiting"
    """At least one side is not known yet."""
    READY = "ready"
    """Both players known, no result yet: the site starts this match."""
    DONE = "done"
    """Played (or forfeited); ``winner`` and ``loser`` set."""
    BYE = "bye"
    """One side empty: the other player goes through without playing."""
    VOID = "void"
    """Nobody plays it: both sides empty, or a grand-final reset that is not needed."""


@dataclass(frozen=True, slots=True)
class SlotState:
    """A slot as things stand: who plays in it (``None``: not known yet, or nobody) and how it
    ended. Derived by :func:`bracket_state`, never stored."""

    slot: MatchSlot
    status: Status
    players: tuple[PlayerId | None, PlayerId | None]
    winner: PlayerId | None = None
    loser: PlayerId | None = None
    forfeit: bool = False
    """Decided without playing because a player withdrew (see :func:`bracket_state`)."""


def plan_bracket(fmt: Format, seeds: Sequence[PlayerId], *, third_place: bool = False) -> BracketPlan:
    """Plan a bracket of either format (``third_place`` applies to single elimination only)."""
    if fmt is Format.SINGLE:
        return single_elimination(seeds, third_place=third_place)
    return double_elimination(seeds)


def single_elimination(seeds: Sequence[PlayerId], *, third_place: bool = False) -> BracketPlan:
    """Plan a single-elimination bracket for ``seeds`` (strongest first, see ``seed_order``).

    With ``third_place`` the two semi-final losers play for third (only with 4 or more lines);
    if a semi-final was a bye, the other semi-final's loser takes third without playing.
    """
    size = _check_field(seeds)
    winners = _winners_bracket(size)
    slots = list(winners)
    rounds = size.bit_length() - 1
    if third_place and rounds >= 2:
        semis = [s for s in winners if s.round == rounds - 1]
        final_stage = winners[-1].stage
        slots.append(
            MatchSlot(
                "3P",
                Section.THIRD_PLACE,
                1,
                1,
                final_stage,
                (LoserOf(semis[0].id), LoserOf(semis[1].id)),
            )
        )
    return BracketPlan(Format.SINGLE, size, tuple(seeds), _link(slots), third_place and rounds >= 2)


def double_elimination(seeds: Sequence[PlayerId]) -> BracketPlan:
    """Plan a double-elimination bracket, grand final and reset included."""
    size = _check_field(seeds)
    slots = _winners_bracket(size)
    rounds = size.bit_length() - 1
    stage = {s.id: s.stage for s in slots}

    def add(slot_id: str, section: Section, rnd: int, index: int, a: Source, b: Source) -> None:
        fed = [stage[src.slot] for src in (a, b) if not isinstance(src, Seed)]
        stage[slot_id] = 1 + max(fed, default=0)
        slots.append(MatchSlot(slot_id, section, rnd, index, stage[slot_id], (a, b)))

    survivors: list[Source] = []
    lround = 0
    for wround in range(1, rounds + 1):
        dropped: list[Source] = [LoserOf(f"W{wround}-{i + 1}") for i in range(size >> wround)]
        if wround % 2 == 0:
            dropped.reverse()
        if wround == 1:
            entrants = dropped
        else:
            lround += 1
            for i, (a, b) in enumerate(zip(survivors, dropped, strict=True)):
                add(f"L{lround}-{i + 1}", Section.LOSERS, lround, i + 1, a, b)
            entrants = [WinnerOf(f"L{lround}-{i + 1}") for i in range(len(survivors))]
        if len(entrants) >= 2:
            lround += 1
            for i in range(len(entrants) // 2):
                a, b = entrants[2 * i], entrants[2 * i + 1]
                add(f"L{lround}-{i + 1}", Section.LOSERS, lround, i + 1, a, b)
            survivors = [WinnerOf(f"L{lround}-{i + 1}") for i in range(len(entrants) // 2)]
        else:
            survivors = entrants
    final = f"W{rounds}-1"
    add("GF", Section.GRAND_FINAL, 1, 1, WinnerOf(final), survivors[0])
    slots.append(
        MatchSlot(
            "GF2",
            Section.GRAND_FINAL,
            2,
            1,
            stage["GF"] + 1,
            (WinnerOf("GF"), LoserOf("GF")),
            reset=True,
        )
    )
    return BracketPlan(Format.DOUBLE, size, tuple(seeds), _link(slots), False)


def bracket_state(
    plan: BracketPlan,
    winners: Mapping[SlotId, PlayerId],
    withdrawn: Collection[PlayerId] = frozenset(),
) -> dict[SlotId, SlotState]:
    """Derive every slot's state from the recorded winners (slot id -> winning player).

    A ``withdrawn`` player (removed, or a no-show) forfeits each slot of theirs that has no
    recorded winner as soon as both sides are known: the slot is DONE with ``forfeit`` set and
    the opponent goes through (if both withdrew, side 0 goes through and forfeits the next
    one). A winner recorded before the withdrawal stands. So removing a player needs no
    bookkeeping of their future matches, and a double-elimination player forfeits twice.

    Raises ``ValueError`` if a winner is recorded for a slot that is not playable or names a
    player who is not in it, so a stale or forged result cannot corrupt the bracket.
    """
    unknown = set(winners) - {s.id for s in plan.slots}
    if unknown:
        raise ValueError(f"no such slot: {sorted(unknown)}")
    states: dict[SlotId, SlotState] = {}
    for slot in plan.slots:
        states[slot.id] = _slot_state(plan, slot, states, winners.get(slot.id), withdrawn)
    return states


def champion(
    plan: BracketPlan,
    winners: Mapping[SlotId, PlayerId],
    withdrawn: Collection[PlayerId] = frozenset(),
) -> PlayerId | None:
    """The tournament winner, or ``None`` while the bracket is still running."""
    states = bracket_state(plan, winners, withdrawn)
    if plan.format is Format.DOUBLE:
        reset, first = states["GF2"], states["GF"]
        if reset.status is Status.DONE:
            return reset.winner
        return first.winner if reset.status is Status.VOID else None
    if any(s.status in (Status.READY, Status.WAITING) for s in states.values()):
        return None  # the third-place match still counts as part of the bracket
    return states[_final_id(plan)].winner


def final_ranking(
    plan: BracketPlan,
    winners: Mapping[SlotId, PlayerId],
    withdrawn: Collection[PlayerId] = frozenset(),
) -> dict[PlayerId, int]:
    """Places of a finished bracket: 1 for the champion, shared places for the same exit.

    A player's place is decided by the stage of the slot they were knocked out in (later is
    better); players knocked out at the same stage share a place (two quarter-final losers are
    both 5th of 8). The final's loser is 2nd; with a third-place match, its winner is 3rd and
    its loser 4th.
    """
    top = champion(plan, winners, withdrawn)
    if top is None:
        raise ValueError("the bracket is not finished")
    states = bracket_state(plan, winners, withdrawn)
    exit_key: dict[PlayerId, tuple[int, int]] = {top: (1 << 30, 0)}
    for state in states.values():
        slot = state.slot
        if slot.section is Section.THIRD_PLACE:
            if state.winner is not None:
                exit_key[state.winner] = (slot.stage, 1)
            if state.loser is not None:
                exit_key[state.loser] = (slot.stage, 0)
        elif state.loser is not None and state.loser != top and slot.loser_to is None:
            exit_key[state.loser] = (slot.stage, 2 if slot.winner_to is None else 0)
    ordered = sorted(exit_key, key=exit_key.__getitem__, reverse=True)
    places: dict[PlayerId, int] = {}
    for position, player in enumerate(ordered, start=1):
        before = ordered[position - 2] if position > 1 else None
        tied = before is not None and exit_key[before] == exit_key[player]
        places[player] = places[before] if tied and before is not None else position
    return places


# --- internals ------------------------------------------------------------------------------

_PENDING: Final = object()
"""A side whose player is not known yet (the feeding slot is unplayed)."""
_EMPTY: Final = object()
"""A side nobody will ever fill (a seed past the field, the loser of a bye)."""


def _check_field(seeds: Sequence[PlayerId]) -> int:
    if len(set(seeds)) != len(seeds):
        raise ValueError("a player is seeded twice")
    return bracket_size(len(seeds))


def _winners_bracket(size: int) -> list[MatchSlot]:
    positions = bracket_seed_positions(size)
    slots = [
        MatchSlot(
            f"W1-{i + 1}",
            Section.WINNERS,
            1,
            i + 1,
            1,
            (Seed(positions[2 * i]), Seed(positions[2 * i + 1])),
        )
        for i in range(size // 2)
    ]
    lines = size // 2
    rnd = 1
    while lines > 1:
        rnd += 1
        lines //= 2
        slots += [
            MatchSlot(
                f"W{rnd}-{i + 1}",
                Section.WINNERS,
                rnd,
                i + 1,
                rnd,
                (WinnerOf(f"W{rnd - 1}-{2 * i + 1}"), WinnerOf(f"W{rnd - 1}-{2 * i + 2}")),
            )
            for i in range(lines)
        ]
    return slots


def _link(slots: list[MatchSlot]) -> tuple[MatchSlot, ...]:
    """Fill ``winner_to`` / ``loser_to`` from the sources (the reset is fed, not feeding)."""
    winner_to: dict[SlotId, tuple[SlotId, int]] = {}
    loser_to: dict[SlotId, tuple[SlotId, int]] = {}
    for slot in slots:
        if slot.reset:
            continue
        for side, source in enumerate(slot.sources):
            if isinstance(source, WinnerOf):
                winner_to[source.slot] = (slot.id, side)
            elif isinstance(source, LoserOf):
                loser_to[source.slot] = (slot.id, side)
    return tuple(
        MatchSlot(
            s.id,
            s.section,
            s.round,
            s.index,
            s.stage,
            s.sources,
            winner_to.get(s.id),
            loser_to.get(s.id),
            s.reset,
        )
        for s in slots
    )


def _final_id(plan: BracketPlan) -> SlotId:
    return f"W{plan.size.bit_length() - 1}-1"


def _side(plan: BracketPlan, source: Source, states: Mapping[SlotId, SlotState]) -> object:
    if isinstance(source, Seed):
        return plan.seeds[source.seed - 1] if source.seed <= len(plan.seeds) else _EMPTY
    fed = states[source.slot]
    if fed.status in (Status.WAITING, Status.READY):
        return _PENDING
    if isinstance(source, WinnerOf):
        return _EMPTY if fed.winner is None else fed.winner
    return _EMPTY if fed.loser is None else fed.loser


def _slot_state(
    plan: BracketPlan,
    slot: MatchSlot,
    states: Mapping[SlotId, SlotState],
    result: PlayerId | None,
    withdrawn: Collection[PlayerId],
) -> SlotState:
    a, b = (_side(plan, src, states) for src in slot.sources)
    if slot.reset:
        first = states["GF"]
        if first.status is not Status.DONE:
            a = b = _PENDING
        elif first.winner == first.players[0]:
            a = b = _EMPTY  # the unbeaten player won: no reset
        else:
            a, b = first.players
    shown = tuple(p if isinstance(p, int) else None for p in (a, b))
    players: tuple[PlayerId | None, PlayerId | None] = (shown[0], shown[1])
    if _PENDING in (a, b) or (a is _EMPTY and b is _EMPTY):
        status = Status.WAITING if _PENDING in (a, b) else Status.VOID
        if result is not None:
            raise ValueError(f"{slot.id} is not playable yet")
        return SlotState(slot, status, players)
    if a is _EMPTY or b is _EMPTY:
        if result is not None:
            raise ValueError(f"{slot.id} is a bye")
        through = players[0] if players[0] is not None else players[1]
        return SlotState(slot, Status.BYE, players, winner=through)
    if result is None:
        a_out, b_out = (p in withdrawn for p in players)
        if not (a_out or b_out):
            return SlotState(slot, Status.READY, players)
        winner, loser = players[::-1] if a_out and not b_out else players
        return SlotState(slot, Status.DONE, players, winner, loser, forfeit=True)
    if result not in players:
        raise ValueError(f"{result} does not play in {slot.id}")
    loser = players[1] if result == players[0] else players[0]
    return SlotState(slot, Status.DONE, players, winner=result, loser=loser)


# --- best-of-N series -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeriesOutcome:
    """Where a best-of-N match stands.

    ``points`` are the two sides' game points (a drawn game gives each side half a point).
    ``winner`` is the side (0 or 1) that took the match, ``None`` while it runs or if it ended
    drawn; ``finished`` says whether another game is needed; ``sudden_death`` says that the
    next game is a decider played after the N games ended level.
    """

    points: tuple[float, float]
    finished: bool
    winner: int | None
    sudden_death: bool


def series_outcome(
    games: Sequence[float],
    best_of: int,
    *,
    allow_draw: bool = False,
    max_deciders: int = 3,
) -> SeriesOutcome:
    """Decide a best-of-N match from its games, each given as side 0's score (1, 0.5 or 0).

    Durak games can be drawn (both last players go out in the same bout), so points, not wins,
    decide: a drawn game is half a point each, and the match is over as soon as one side leads
    by more than the points still to play (best of 3: 2-0 ends it, 1.5-0.5 does not, since a
    loss in the third game would level it).

    If the N games end level, a league match (``allow_draw``: round robin, Swiss) is a draw.
    An elimination match needs a winner, so deciders follow: the first decisive game wins the
    match, drawn deciders are replayed, and if ``max_deciders`` deciders are all drawn side 0
    (the higher seed; the site puts the higher seed there) goes through, so a match always ends.

    Raises ``ValueError`` for a score other than 1/0.5/0 or for games recorded after the end.

    >>> series_outcome([1, 1], 3)
    SeriesOutcome(points=(2.0, 0.0), finished=True, winner=0, sudden_death=False)
    >>> series_outcome([1, 0.5], 3).finished
    False
    >>> series_outcome([1, 0], 2).sudden_death
    True
    """
    if best_of < 1 or max_deciders < 1:
        raise ValueError("a match has at least one game and one decider")
    a = b = 0.0
    for played, score in enumerate(games, start=1):
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game score is 1, 0.5 or 0, not {score}")
        if _series_end(a, b, played - 1, best_of, allow_draw, max_deciders) is not None:
            raise ValueError("a game was recorded after the match ended")
        a, b = a + score, b + 1 - score
        if played > best_of and score != 0.5:
            return SeriesOutcome((a, b), True, 0 if score == 1 else 1, False)
    played = len(games)
    end = _series_end(a, b, played, best_of, allow_draw, max_deciders)
    if end is None:
        return SeriesOutcome((a, b), False, None, played >= best_of)
    return SeriesOutcome((a, b), True, end[0], False)


def _series_end(
    a: float, b: float, played: int, best_of: int, allow_draw: bool, max_deciders: int
) -> tuple[int | None] | None:
    """``(winner,)`` if the match is over after ``played`` games (decisive deciders aside)."""
    remaining = best_of - played
    if remaining >= 0 and abs(a - b) > remaining:
        return (0 if a > b else 1,)
    if played < best_of:
        return None
    if a != b:
        return (0 if a > b else 1,)  # a decisive decider settled it
    if allow_draw:
        return (None,)
    return (0,) if played - best_of >= max_deciders else None
