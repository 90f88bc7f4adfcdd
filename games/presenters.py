"""The one place that turns a match into what ONE viewer may see.

Pages and sockets render only the :class:`MatchContext` built here. It is made from the engine's
view for that viewer (``state.view(seat)`` for a player, ``spectator_view()`` for everyone else,
``full_view()`` once the match is over), plus the match's public metadata: names, badges, the
deadline, the version and the move log in words. Nothing else of the engine state is read, so no
other player's card and nothing of the stock's order can reach a template or a socket frame.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts.models import User
from games.engine import Action
from games.engine.cards import SUIT_SYMBOLS, SUITS, card_str
from games.forms import BotFillForm, describe_rules
from games.models import Match, MatchPlayer, Move, Table
from games.selectors import match_moves, match_state, table_current_match
from games.templatetags.cards import card_label, card_text

#: How many face-down cards an opponent's seat draws at most (table.css shows 8).
MAX_BACKS = 8

VARIANT_NAMES = {
    "podkidnoy": pgettext("variant", "Podkidnoy"),
    "perevodnoy": pgettext("variant", "Perevodnoy"),
    "circle": pgettext("variant", "Circle"),
}


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat at the table as this viewer sees it: public facts, and cards only when allowed."""

    position: int
    name: str
    is_bot: bool
    is_viewer: bool
    card_count: int
    #: Face-up cards: only in the full view after the match (own cards are in ``hand``).
    cards: tuple[str, ...]
    is_attacker: bool
    is_defender: bool
    is_actor: bool
    awaiting: str
    place: int | None
    fool: bool
    autopilot: bool
    resigned: bool
    wants_again: bool
    team: int | None

    @property
    def team_number(self) -> int | None:
        """1 or 2 in a team game (partners share it)."""
        return None if self.team is None else self.team + 1

    @property
    def backs(self) -> range:
        """As many face-down cards as the template draws for this seat."""
        return range(0 if self.cards else min(self.card_count, MAX_BACKS))


@dataclass(frozen=True, slots=True)
class PairView:
    """An attack card with its cover; ``targetable`` when the viewer may cover it now."""

    attack: str
    cover: str | None
    targetable: bool


@dataclass(frozen=True, slots=True)
class HandCard:
    """A card of the viewer's own hand; ``legal`` when some legal action uses it."""

    code: str
    legal: bool


@dataclass(frozen=True, slots=True)
class Choice:
    """A legal action with its words, for buttons and the no-script list."""

    action: str
    label: str
    kind: str


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the move log, already in words (card labels are coloured spans)."""

    seq: int
    html: SafeString
    mine: bool
    event: bool


@dataclass(frozen=True, slots=True)
class MatchContext:
    """Everything the match page and its socket render for one viewer."""

    match_id: int
    table_id: int
    number: int
    version: int
    status: str
    variant: str
    rated: bool
    turn_seconds: int
    viewer_seat: int | None
    seats: tuple[SeatView, ...]
    me: SeatView | None
    stage: int
    trump_card: str | None
    trump_suit: str | None
    stock_count: int
    discard_count: int
    pairs: tuple[PairView, ...]
    circle: tuple[str, ...]
    hand: tuple[HandCard, ...]
    choices: tuple[Choice, ...]
    your_move: bool
    status_text: str
    remaining_ms: int | None
    log: tuple[LogLine, ...]
    last_seq: int
    result_lines: tuple[str, ...]
    can_abort: bool
    can_resign: bool
    can_play_again: bool
    next_match_url: str | None

    @property
    def is_active(self) -> bool:
        return self.status == Match.Status.ACTIVE

    @property
    def is_player(self) -> bool:
        return self.viewer_seat is not None

    @property
    def legal_actions(self) -> list[str]:
        """The viewer's legal actions in notation (the script matches chosen cards to them)."""
        return [choice.action for choice in self.choices]

    @property
    def legal_json(self) -> str:
        """The legal actions with their words, as JSON for the card-choosing script."""
        return json.dumps({choice.action: choice.label for choice in self.choices})

    @property
    def circle_targets(self) -> frozenset[str]:
        """Circle cards the viewer's drawn card may beat now (circle stage 1)."""
        return frozenset(c.action.split(">", 1)[1] for c in self.choices if c.kind == "beat")

    @property
    def remaining_seconds(self) -> int:
        """Whole seconds left on the turn timer (for the page before the script runs)."""
        return -(-(self.remaining_ms or 0) // 1000)

    @property
    def trump_suit_symbol(self) -> str:
        """The trump suit as ♠ ♣ ♦ ♥ (when no trump card is on show)."""
        return _suit_symbol(self.trump_suit)

    @property
    def buttons(self) -> tuple[Choice, ...]:
        """Actions that need no card chosen: take, pass, redeal."""
        return tuple(c for c in self.choices if c.kind in ("take", "pass", "redeal"))


def viewer_seat(match: Match, user: User | AnonymousUser) -> int | None:
    """The seat ``user`` plays in ``match``, or ``None`` for spectators and anonymous visitors."""
    if not user.is_authenticated:
        return None
    for player in _players(match):
        if player.user_id == user.pk:
            return int(player.seat)
    return None


def present_match(
    match: Match,
    user: User | AnonymousUser,
    *,
    moves: Iterable[Move] | None = None,
    now: datetime | None = None,
) -> MatchContext:
    """Build ``user``'s context of ``match`` (players, table, hand, actions, status, log).

    ``moves`` defaults to the whole log; a socket passes only the moves it has not sent yet.
    """
    seat = viewer_seat(match, user)
    state = match_state(match)
    active = match.status == Match.Status.ACTIVE
    if not active:
        view = state.full_view()
    elif seat is None:
        view = state.spectator_view()
    else:
        view = state.view(seat)
    players = {p.seat: p for p in _players(match)}
    names = {s: _player_name(p) for s, p in players.items()}
    legal = list(view.legal) if active and seat is not None else []
    awaiting: Mapping[int, str] = view.awaiting if active else {}
    teams = bool(match.rules.get("teams"))
    seats = _seats(view, players, names, seat, awaiting, active, teams)
    me = next((s for s in seats if s.is_viewer), None)
    log_moves = list(match_moves(match_id=match.pk) if moves is None else moves)
    last_seq = log_moves[-1].seq if log_moves else 0
    remaining = _remaining_ms(match, now) if active else None
    return MatchContext(
        match_id=match.pk,
        table_id=match.table_id,
        number=match.number,
        version=match.version,
        status=match.status,
        variant=VARIANT_NAMES.get(view.variant, view.variant),
        rated=bool(match.table.rated),
        turn_seconds=int(match.table.turn_seconds),
        viewer_seat=seat,
        seats=_around(seats, seat),
        me=me,
        stage=int(view.stage),
        trump_card=view.trump_card,
        trump_suit=view.trump_suit,
        stock_count=int(view.stock_count),
        discard_count=int(view.discard_count),
        pairs=_pairs(view.table, legal),
        circle=tuple(view.circle or ()),
        hand=_hand(view.hand if seat is not None else None, legal),
        choices=tuple(_choice(a) for a in legal),
        your_move=seat is not None and seat in awaiting,
        status_text=_status_text(match, view, names, seat, awaiting),
        remaining_ms=remaining,
        log=tuple(_log_lines(log_moves, names, seat)),
        last_seq=last_seq,
        result_lines=tuple(_result_lines(match, names)),
        can_abort=active and seat is not None and match.version == 0 and not log_moves,
        can_resign=active and seat is not None and not (me and me.autopilot),
        can_play_again=(not active and seat is not None and match.table.status != "closed"),
        next_match_url=None if active else _next_match_url(match),
    )


def _next_match_url(match: Match) -> str | None:
    """The page of the game dealt after ``match`` at its table, once "play again" started it."""
    latest = table_current_match(table_id=match.table_id)
    if latest is None or latest.pk == match.pk:
        return None
    return reverse("games:match", args=[latest.pk])


def _suit_symbol(suit: object) -> str:
    if isinstance(suit, int) and 0 <= suit < len(SUIT_SYMBOLS):
        return SUIT_SYMBOLS[suit]
    if isinstance(suit, str) and suit in SUITS:
        return SUIT_SYMBOLS[SUITS.index(suit)]
    return ""


# --- seats -----------------------------------------------------------------------------------


def _players(match: Match) -> list[MatchPlayer]:
    return list(match.players.all())


def _player_name(player: MatchPlayer) -> str:
    return str(player.user.public_name)


def _seats(
    view: Any,
    players: Mapping[int, MatchPlayer],
    names: Mapping[int, str],
    seat: int | None,
    awaiting: Mapping[int, str],
    active: bool,
    teams_game: bool,
) -> list[SeatView]:
    teams = bool(teams_game)
    place_of = {s: i + 1 for i, group in enumerate(view.places or ()) for s in group}
    hands = getattr(view, "hands", None) or {}
    actors = set(view.actors or ()) if active else set()
    result = _result_dict(view)
    fool = result.get("fool") if result else None
    out: list[SeatView] = []
    for position, count in enumerate(view.hand_counts):
        player = players.get(position)
        cards = hands.get(position) if isinstance(hands, Mapping) else _nth(hands, position)
        out.append(
            SeatView(
                position=position,
                name=names.get(position, _("Seat %(n)d") % {"n": position + 1}),
                is_bot=bool(player and player.user.is_bot),
                is_viewer=position == seat,
                card_count=int(count),
                cards=tuple(cards) if (cards and position != seat) else (),
                is_attacker=active and view.attacker == position,
                is_defender=active and view.defender == position,
                is_actor=position in actors,
                awaiting=_awaiting_words(awaiting.get(position, "")),
                place=place_of.get(position),
                fool=(fool == position) or bool(player and player.fool),
                autopilot=bool(player and player.autopilot),
                resigned=bool(player and player.resigned),
                wants_again=bool(player and player.wants_again),
                team=(position % 2) if teams else None,
            )
        )
    return out


def _nth(items: Any, index: int) -> Any:
    if isinstance(items, Sequence) and index < len(items):
        return items[index]
    return None


def _around(seats: list[SeatView], seat: int | None) -> tuple[SeatView, ...]:
    """Opponents clockwise from the viewer's left (everyone from seat 0 for a spectator)."""
    if seat is None:
        return tuple(seats)
    n = len(seats)
    return tuple(seats[(seat + k) % n] for k in range(1, n))


def _awaiting_words(code: str) -> str:
    words = {
        "lead": _("to lead"),
        "cover": _("to cover"),
        "throw_in": _("to throw in"),
        "take_more": _("to throw in"),
        "beat": _("to beat"),
    }
    return words.get(code, _("to move") if code else "")


# --- table and hand --------------------------------------------------------------------------


def _pairs(table: Iterable[Any], legal: Sequence[str]) -> tuple[PairView, ...]:
    targets = {text.split(">", 1)[1] for text in legal if text.startswith("cover ")}
    pairs = []
    for attack, cover in table:
        pairs.append(PairView(attack, cover, cover is None and attack in targets))
    return tuple(pairs)


def _hand(hand: Iterable[str] | None, legal: Sequence[str]) -> tuple[HandCard, ...]:
    if not hand:
        return ()
    used = set()
    for text in legal:
        action = Action.parse(text)
        used.update(_cards_text(action))
    return tuple(HandCard(code, code in used) for code in hand)


def _cards_text(action: Action) -> list[str]:
    """The cards an action plays from the hand (a cover's target lies on the table)."""
    return [card_str(card) for card in action.cards]


def _choice(text: str) -> Choice:
    action = Action.parse(text)
    cards = _cards_text(action)
    labels = ", ".join(_plain_label(c) for c in cards)
    target = _plain_label(text.split(">", 1)[1]) if ">" in text else ""
    match action.kind:
        case "attack":
            label = _("Play %(cards)s") % {"cards": labels}
        case "cover":
            label = _("Cover %(target)s with %(card)s") % {"target": target, "card": labels}
        case "transfer":
            label = _("Transfer with %(cards)s") % {"cards": labels}
        case "show":
            label = _("Show %(cards)s to transfer") % {"cards": labels}
        case "beat":
            label = _("Beat %(target)s with %(card)s") % {"target": target, "card": labels}
        case "take":
            label = _("Take")
        case "pass":
            label = _("Pass")
        case "redeal":
            label = _("Redeal")
        case _kind:
            label = text
    return Choice(text, label, action.kind)


def _plain_label(code: str) -> str:
    return card_label(code)


# --- status and timer ------------------------------------------------------------------------


def _remaining_ms(match: Match, now: datetime | None) -> int | None:
    if match.deadline_at is None:
        return None
    now = now or timezone.now()
    return max(0, int((match.deadline_at - now).total_seconds() * 1000))


def _status_text(
    match: Match,
    view: Any,
    names: Mapping[int, str],
    seat: int | None,
    awaiting: Mapping[int, str],
) -> str:
    if match.status == Match.Status.ABORTED:
        return _("The game was aborted.")
    if match.status == Match.Status.FINISHED:
        return _("The game is over.")
    if seat is not None and seat in awaiting:
        code = awaiting[seat]
        what = {
            "lead": _("Your move: lead"),
            "cover": _("Your move: cover or take"),
            "throw_in": _("Your move: throw in or pass"),
            "take_more": _("Your move: throw in more or pass"),
            "beat": _("Your move: choose the card to beat"),
        }
        return what.get(code, _("Your move"))
    waiting = [names.get(s, "?") for s in sorted(awaiting)]
    if not waiting:
        return ""
    return _("Waiting for %(names)s") % {"names": ", ".join(waiting)}


# --- result ----------------------------------------------------------------------------------


def _result_dict(view: Any) -> dict[str, Any] | None:
    result = getattr(view, "result", None)
    if result is None:
        return None
    if isinstance(result, dict):
        return result
    to_dict = getattr(result, "to_dict", None)
    return to_dict() if callable(to_dict) else None


def _result_lines(match: Match, names: Mapping[int, str]) -> Iterable[str]:
    """The finishing order in words, from the stored result of a finished match."""
    result = match.result or {}
    if match.status != Match.Status.FINISHED or not result:
        return []
    lines = []
    for place, group in enumerate(result.get("places", ()), start=1):
        who = ", ".join(names.get(s, "?") for s in group)
        lines.append(_("%(place)d. %(names)s") % {"place": place, "names": who})
    if result.get("draw"):
        lines.append(_("A draw: nobody is the fool."))
    elif result.get("losing_team"):
        team = " & ".join(names.get(s, "?") for s in result["losing_team"])
        lines.append(_("The losing team: %(names)s") % {"names": team})
    elif result.get("fool") is not None:
        lines.append(_("The fool: %(name)s") % {"name": names.get(result["fool"], "?")})
    return lines


# --- the move log in words -------------------------------------------------------------------


def _log_lines(
    moves: Iterable[Move], names: Mapping[int, str], seat: int | None
) -> Iterable[LogLine]:
    for move in moves:
        for event in move.events or ():
            html = describe_event(event, names)
            if html:
                yield LogLine(
                    seq=int(move.seq),
                    html=html,
                    mine=seat is not None and event.get("seat") == seat,
                    event=event.get("kind") not in _PLAYER_KINDS,
                )


_PLAYER_KINDS = frozenset({"attack", "cover", "transfer", "show", "take", "pass", "beat", "redeal"})


def _cards_html(codes: Sequence[str]) -> SafeString:
    return format_html_join(" ", "{}", ((card_text(c),) for c in codes))


def describe_event(event: Mapping[str, Any], names: Mapping[int, str]) -> SafeString | None:
    """One public engine event (``Event.to_dict()``) as a sentence; ``None`` for silent ones."""
    kind = event.get("kind")
    seat = event.get("seat")
    name = names.get(seat, "?") if seat is not None else ""
    cards = _cards_html(event.get("cards", ()))
    target = card_text(event["target"]) if event.get("target") else ""
    count = int(event.get("count", 0))
    args = {"name": name, "cards": cards, "target": target, "count": count}
    sentence = _sentence(str(kind), count)
    if sentence is None:
        return None
    # The translated sentence is escaped as text; the card spans are already safe HTML.
    safe_args = {key: conditional_escape(value) if isinstance(value, str) else value
                 for key, value in args.items()}
    return mark_safe(conditional_escape(sentence) % safe_args)


def _sentence(kind: str, count: int) -> str | None:
    match kind:
        case "attack":
            if count == 1:
                return _("%(name)s leads %(cards)s")
            return _("%(name)s throws in %(cards)s")
        case "cover":
            return _("%(name)s covers %(target)s with %(cards)s")
        case "transfer":
            return _("%(name)s transfers with %(cards)s")
        case "show":
            return _("%(name)s shows %(cards)s and transfers")
        case "take":
            return _("%(name)s takes")
        case "pass":
            return _("%(name)s passes")
        case "took":
            return ngettext(
                "%(name)s picks up %(count)d card", "%(name)s picks up %(count)d cards", count
            )
        case "bito":
            return ngettext(
                "Bito: %(count)d card to the discard pile",
                "Bito: %(count)d cards to the discard pile",
                count,
            )
        case "draw":
            return ngettext(
                "%(name)s draws %(count)d card", "%(name)s draws %(count)d cards", count
            )
        case "out":
            return _("%(name)s is out: place %(count)d")
        case "redeal":
            return _("%(name)s shows %(cards)s: redeal")
        case "skip":
            return _("%(name)s holds only jokers and skips the attack")
        case "game_over":
            return _("The game is over")
        case "turn_up":
            return _("%(name)s turns up %(cards)s")
        case "beat":
            return _("%(name)s beats %(target)s with %(cards)s and takes both")
        case "to_circle":
            return _("%(cards)s joins the circle")
        case "trump_taken":
            return _("%(name)s takes the trump card %(cards)s")
        case "leftovers":
            return ngettext(
                "%(name)s gets %(count)d leftover card",
                "%(name)s gets %(count)d leftover cards",
                count,
            )
        case "stage2":
            return _("Stage 2 begins: %(name)s attacks first")
    return None


# --- the table page --------------------------------------------------------------------------


def present_table(
    table: Table, user: User | AnonymousUser, *, token: str, invite_url: str
) -> dict[str, Any]:
    """The table page's context: seats, what this user may do, the invite link for insiders."""
    seats = {s.position: s for s in table.seats.all()}
    seated = user.is_authenticated and any(s.user_id == user.pk for s in seats.values())
    is_creator = user.is_authenticated and table.creator_id == user.pk
    match = table_current_match(table_id=table.pk)
    return {
        "table": table,
        "positions": [(pos, seats.get(pos)) for pos in range(table.players)],
        "free": table.players - len(seats),
        "seated": seated,
        "is_open": table.status == Table.Status.OPEN,
        "can_fill": (seated or is_creator) and table.status == Table.Status.OPEN,
        "invite": token,
        "invite_url": invite_url if table.private and (seated or is_creator) else None,
        "match": match,
        "match_url": reverse("games:match", args=[match.pk]) if match else None,
        "bot_form": BotFillForm(),
        "rules_lines": describe_rules(table.rules),
    }


# --- the lobby -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One open table in the lobby list."""

    pk: int
    title: str
    rated: bool
    variant: str
    players: int
    deck: int
    teams: bool
    turn_seconds: int
    seated: tuple[tuple[str, bool], ...]

    @property
    def free_seats(self) -> int:
        return self.players - len(self.seated)


def present_lobby(tables: Iterable[Table]) -> list[TableSummary]:
    """The lobby's open tables (from ``selectors.open_tables``), in words."""
    return [
        TableSummary(
            pk=table.pk,
            title=str(table),
            rated=table.rated,
            variant=VARIANT_NAMES.get(table.variant, table.variant),
            players=table.players,
            deck=int(table.rules.get("deck", 36)),
            teams=bool(table.rules.get("teams")),
            turn_seconds=int(table.turn_seconds),
            seated=tuple(
                (str(seat.user.public_name), bool(seat.user.is_bot)) for seat in table.seats.all()
            ),
        )
        for table in tables
    ]
