"""A position on the board: read from text and a line of moves played on from it, or set up in
the editor. Everything a page shows is read here from the engine; nothing is stored.

The line is kept in the URL (``m=seat:move``, one per move), so undo is the same link with the
last move dropped and a shared link opens the same board for anyone. A position's text is the
sharer's own (pasted, edited, or a finished match's step, whose replay shows every card anyway),
so showing every card of it hides nothing from anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlencode

from django.utils.translation import gettext as _

from durak_site.errors import Refused
from games.engine import Action, GameState, IllegalAction, PositionError, Rules, RulesError
from games.words import illegal_message, position_message, rules_message

#: The longest position text and line a request may carry: a whole game fits both.
MAX_POSITION: Final = 2000
MAX_LINE: Final = 400
#: The editor's zones: a hand per seat (the variant allows six), and the table's piles.
SEATS: Final = 6


class BoardRefused(Refused):
    default_message = _("This position is not possible.")


@dataclass(frozen=True, slots=True)
class Board:
    """A position played on: the state now, the start's text, the line (``seat:move``) and the
    current position's text."""

    start: str
    line: tuple[str, ...]
    state: GameState
    position: str

    def link(self, line: Sequence[str] | None = None) -> str:
        """The board's query string with ``line`` (this board's by default)."""
        pairs = [("position", self.start)] + [("m", m) for m in (self.line if line is None else line)]
        return "?" + urlencode(pairs)

    def share(self) -> str:
        """The current position alone, as a query string: the line folded into the start."""
        return "?" + urlencode([("position", self.position)])

    def moves(self) -> list[tuple[int, str, str]]:
        """Every seat's legal moves now: (seat, notation, the link that plays it)."""
        return [
            (seat, str(action), self.link([*self.line, f"{seat}:{action}"]))
            for seat in self.state.actors()
            for action in self.state.legal_actions(seat)
        ]

    def undo(self) -> str | None:
        return self.link(self.line[:-1]) if self.line else None


def position_refused(error: PositionError | RulesError) -> BoardRefused:
    """The engine's refusal as the page says it: the sentence declared for its code, in the
    active language."""
    if isinstance(error, RulesError):
        return BoardRefused(rules_message(error))
    return BoardRefused(position_message(error))


def read_board(start: str, line: Sequence[str]) -> Board:
    """The position ``start`` with ``line`` played on; ``BoardRefused`` says why not."""
    start = start.strip()
    if not start:
        raise BoardRefused(_("Paste a position, or set one up in the editor."))
    if len(start) > MAX_POSITION or len(line) > MAX_LINE:
        raise BoardRefused(_("This position is too long."))
    try:
        state = GameState.from_position(start)
    except (PositionError, RulesError) as error:
        raise position_refused(error) from None
    for step in line:
        seat_text, _sep, text = step.partition(":")
        try:
            seat = int(seat_text)
            action = Action.parse(text)
        except ValueError:
            raise BoardRefused(_("“%(move)s” is not a move.") % {"move": step[:40]}) from None
        if seat not in state.actors():
            raise BoardRefused(_("Seat %(seat)s has no move here.") % {"seat": seat})
        try:
            state.apply(seat, action)
        except IllegalAction as error:
            raise BoardRefused(illegal_message(error)) from None
    return Board(start=start, line=tuple(line), state=state, position=state.position())


def cards_token(text: str) -> str:
    """Cards typed with spaces or commas ("6S 7H") as the notation's list ("6S,7H", "-")."""
    cards = [c.upper() for c in text.replace(",", " ").split()]
    return ",".join(cards) or "-"


def editor_position(
    *,
    variant: str,
    deck: int,
    jokers: int,
    hands: Sequence[str],
    trump: str,
    stock: str,
    discard: str,
    table: str,
) -> str:
    """The position the editor's fields describe, checked by the engine: a fresh bout whose
    first attacker the rules find (``attacker=rules``), or one with cards ``table``d against
    the first hand's opponent. ``BoardRefused`` carries the engine's sentence."""
    seats = [h for h in hands if h.strip()]
    try:
        Rules.for_variant(variant, len(seats), deck=deck, jokers=jokers)
    except RulesError as error:
        raise position_refused(error) from None
    options = []
    if deck != Rules.for_variant(variant, 2).deck:
        options.append(f"deck={deck}")
    if jokers:
        options.append(f"jokers={jokers}")
    tokens = [variant, *options, f"trump={trump.strip().upper() or '-'}"]
    tokens.append("hands=" + "/".join(cards_token(h) for h in seats))
    for name, value in (("stock", stock), ("discard", discard)):
        if value.strip():
            tokens.append(f"{name}={cards_token(value)}")
    if table.strip():
        tokens += [f"table={cards_token(table)}", "attacker=0"]
    else:
        tokens.append("attacker=rules")
    text = " ".join(tokens)
    try:
        return GameState.from_position(text).position()
    except (PositionError, RulesError) as error:
        raise position_refused(error) from None
