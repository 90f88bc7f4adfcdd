"""A step's board as the learner sees it: drawn from the engine's view of the learner's seat only
(``GameState.view``), so a lesson shows what a player at that seat would see and nothing more:
their hand, the table, the trump, the circle, and how many cards the others hold.

The board is a form: the hand's cards are checkboxes, the uncovered attack cards and the circle's
cards are the targets, and the buttons are the kinds of move the variant has, whether legal now or
not, so the learner may try a wrong move and hear from the engine why it is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine import GameState
from games.words import your_move_words


@dataclass(frozen=True, slots=True)
class Seat:
    """Another player as the learner sees them."""

    name: str
    count: int
    role: str
    out: bool

    @property
    def backs(self) -> range:
        """The card backs drawn for the hand (the seat's count says how many there are)."""
        return range(min(self.count, 8))


@dataclass(frozen=True, slots=True)
class Button:
    kind: str
    label: str


@dataclass(frozen=True, slots=True)
class Board:
    variant: str
    stage: int
    trump_card: str | None
    trump_suit: str
    stock_count: int
    discard_count: int
    seats: tuple[Seat, ...]
    table: tuple[tuple[str, str | None], ...]
    circle: tuple[str, ...]
    drawn: str | None
    hand: tuple[str, ...]
    targets: frozenset[str]
    buttons: tuple[Button, ...]
    status: str
    over: bool


def seat_name(seat: int) -> str:
    """How a lesson's text names a seat: "Player 1" for seat 0."""
    return _("Player %(number)s") % {"number": seat + 1}


def board(state: GameState, seat: int) -> Board:
    """The learner's board at ``seat``."""
    seat_view = state.view(seat)
    seats = tuple(
        Seat(
            name=seat_name(other),
            count=seat_view.hand_counts[other],
            role=_role(seat_view.attacker, seat_view.defender, other),
            out=other in seat_view.out,
        )
        for other in range(seat_view.players)
        if other != seat
    )
    uncovered = {attack for attack, cover in seat_view.table if cover is None}
    targets = frozenset(seat_view.circle if seat_view.stage == 1 else uncovered)
    awaited = seat_view.awaiting.get(seat)
    if seat_view.is_over:
        status = _("The game is over.")
    elif awaited:
        status = your_move_words(awaited)
    else:
        status = _("You may move, or wait.")
    return Board(
        variant=seat_view.variant,
        stage=seat_view.stage,
        trump_card=seat_view.trump_card,
        trump_suit=seat_view.trump_suit,
        stock_count=seat_view.stock_count,
        discard_count=seat_view.discard_count,
        seats=seats,
        table=tuple(seat_view.table),
        circle=tuple(seat_view.circle),
        drawn=seat_view.drawn,
        hand=tuple(seat_view.hand),
        targets=targets,
        buttons=_buttons(state, seat_view.stage),
        status=status,
        over=seat_view.is_over,
    )


def _role(attacker: int | None, defender: int | None, seat: int) -> str:
    if seat == attacker:
        return _("attacks")
    if seat == defender:
        return _("defends")
    return ""


def _buttons(state: GameState, stage: int) -> tuple[Button, ...]:
    """The moves the variant has (the rules are public: they are the table's options)."""
    if stage == 1:
        return (Button("beat", _("Beat")),)
    kinds = [Button("attack", _("Play cards")), Button("cover", _("Cover"))]
    if state.rules.variant != "podkidnoy":
        kinds.append(Button("transfer", _("Transfer")))
    if state.rules.transfer_by_trump_show:
        kinds.append(Button("show", _("Show trump")))
    kinds += [Button("take", _("Take")), Button("pass", _("Pass"))]
    return tuple(kinds)
