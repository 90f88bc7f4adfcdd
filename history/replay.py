"""A finished match step by step, rebuilt from its stored record through the engine.

Step 0 is the deal; step ``n`` is the table after the ``n``-th logged action. Every hand is
visible (the engine's ``full_view``) because the game is over; nothing here is ever built for a
running match. Each step says what happened in words, from the public events the move log
stored (the same sentences as the live log, ``games.words.describe_event``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engine import Action, GameRecord, Rules
from games.engine.cards import SUIT_SYMBOLS, SUITS
from games.engine.visibility import View
from games.models import Match, Move
from games.templatetags.cards import card_text
from games.words import describe_event, variant_name
from play.selectors import match_moves


@dataclass(frozen=True, slots=True)
class ReplaySeat:
    """A seat at this step: every card face up."""

    position: int
    name: str
    is_bot: bool
    cards: tuple[str, ...]
    acted: bool
    is_attacker: bool
    is_defender: bool
    place: int | None


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The table after ``number`` actions (0: the deal) and what the last one did, in words."""

    number: int
    last: int
    words: tuple[SafeString, ...]
    seats: tuple[ReplaySeat, ...]
    full_view: View
    #: The whole position in the engine's notation (``docs/position.md``): every card, the stock's
    #: order included, which a finished match's replay shows anyway ("copy position").
    position: str

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 0 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.last else None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One step of the whole log, for the list of steps beside the table."""

    number: int
    words: tuple[SafeString, ...]


def match_names(match: Match) -> dict[int, str]:
    """Seat -> public name (players prefetched by ``history.selectors.match_for_record``)."""
    return {player.seat: str(player.user.public_name) for player in match.players.all()}


def replay_log(match: Match, moves: list[Move]) -> list[LogEntry]:
    """Every step in words: the deal, then each action."""
    names = match_names(match)
    entries = [LogEntry(0, (_deal_words(match, names),))]
    for move in moves:
        entries.append(LogEntry(int(move.seq), _move_words(move, names)))
    return entries


def replay_step(match: Match, moves: list[Move], number: int) -> ReplayStep:
    """The step ``number`` (clamped to the log) with every hand face up."""
    last = len(moves)
    number = max(0, min(number, last))
    record = GameRecord(Rules.from_dict(match.rules), match.seed, match.dealer)
    state = record.start()
    for move in moves[:number]:
        state.apply(move.seat, Action.parse(move.action))
    full_view = state.full_view()
    names = match_names(match)
    players = {player.seat: player for player in match.players.all()}
    acted = moves[number - 1].seat if number else None
    place_of = {seat: i + 1 for i, group in enumerate(full_view.places) for seat in group}
    seats = tuple(
        ReplaySeat(
            position=seat,
            name=names.get(seat, "?"),
            is_bot=bool(seat in players and players[seat].user.is_bot),
            cards=tuple(full_view.hands[seat]) if full_view.hands is not None else (),
            acted=seat == acted,
            is_attacker=full_view.attacker == seat,
            is_defender=full_view.defender == seat,
            place=place_of.get(seat),
        )
        for seat in range(full_view.players)
    )
    words = (_deal_words(match, names),) if number == 0 else _move_words(moves[number - 1], names)
    return ReplayStep(
        number=number, last=last, words=words, seats=seats, full_view=full_view, position=state.position()
    )


def stored_moves(match: Match) -> list[Move]:
    return list(match_moves(match_id=match.pk))


def _move_words(move: Move, names: dict[int, str]) -> tuple[SafeString, ...]:
    lines = tuple(line for event in move.events or () if (line := describe_event(event, names)))
    return lines or (conditional_escape(move.action),)


def _deal_words(match: Match, names: dict[int, str]) -> SafeString:
    record = GameRecord(Rules.from_dict(match.rules), match.seed, match.dealer)
    full_view = record.start().full_view()
    variant = variant_name(full_view.variant)
    if full_view.trump_card:
        trump = card_text(full_view.trump_card)
    else:
        trump = conditional_escape(SUIT_SYMBOLS[SUITS.index(full_view.trump_suit)])
    sentence = _("%(variant)s: %(name)s deals; the trump is %(trump)s.")
    # The sentence and the name are escaped as text; the card span is already safe HTML.
    return mark_safe(
        conditional_escape(sentence)
        % {
            "variant": conditional_escape(variant),
            "name": conditional_escape(names.get(match.dealer, "?")),
            "trump": trump,
        }
    )
