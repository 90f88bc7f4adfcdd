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
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from accounts.models import User
from games import seeding
from games.engine import LegalMove
from games.engine.cards import SUIT_SYMBOLS, SUITS
from games.engine.phases import THROW_IN_CODES
from games.engine.visibility import View
from games.fairness import seed_commitment
from games.memos import gettext as _
from games.memos import in_language, ngettext, pgettext
from games.models import Match, MatchPlayer, Move, Table
from games.pools import table_kind_pool
from games.templatetags.cards import card
from games.words import (
    PLAYER_EVENT_KINDS,
    action_label,
    awaiting_words,
    describe_event,
    variant_name,
    your_move_words,
)
from play import ratings
from play.forms import BotFillForm, describe_rules
from play.loaded import LoadedMatch
from play.ratings import ShownRating
from play.result_panel import ResultPanel, result_panel
from play.selectors import seed_value_sent, table_current_match

#: How many face-down cards an opponent's seat draws at most (table.css shows 8).
MAX_BACKS = 8


@dataclass(frozen=True, slots=True)
class ShownSeat:
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
    awaiting: str
    place: int | None
    fool: bool
    #: The fool, or a player of the losing team (a finished match).
    lost: bool
    autopilot: bool
    resigned: bool
    wants_again: bool
    team: int | None
    #: Consecutive timeouts that counted towards autopilot (public: everyone saw the timer play).
    timeouts: int = 0
    #: Their rating in the table's pool when the match was dealt ("?" marks a provisional one).
    rating: ShownRating | None = None

    @property
    def team_number(self) -> int | None:
        """1 or 2 in a team game (partners share it)."""
        return None if self.team is None else self.team + 1

    @property
    def timeouts_text(self) -> str:
        """The run of timeouts against the number that ends in autopilot, as "2/3" (never
        localised)."""
        return f"{self.timeouts}/{MatchPlayer.AUTOPILOT_AFTER_TIMEOUTS}"

    @property
    def backs(self) -> range:
        """As many face-down cards as the template draws for this seat."""
        return range(0 if self.cards else min(self.card_count, MAX_BACKS))


@dataclass(frozen=True, slots=True)
class ShownPair:
    """An attack card with its cover; ``targetable`` when the viewer may cover it now."""

    attack: str
    cover: str | None
    targetable: bool

    @property
    def attack_face(self) -> SafeString:
        return card(self.attack)

    @property
    def cover_face(self) -> SafeString:
        return card(self.cover) if self.cover else SafeString()


@dataclass(frozen=True, slots=True)
class HandCard:
    """A card of the viewer's own hand; ``legal`` when some legal action uses it."""

    code: str
    legal: bool

    @property
    def face(self) -> SafeString:
        return card(self.code, "lg")


@dataclass(frozen=True, slots=True)
class Choice:
    """A legal action with its words, for buttons and the no-script list: the engine's
    structured move (kind, the cards it plays, the card it covers or beats) and its notation."""

    action: str
    label: str
    kind: str
    cards: tuple[str, ...]
    target: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "label": self.label,
            "kind": self.kind,
            "cards": list(self.cards),
            "target": self.target,
        }


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
    version: int
    status: str
    variant: str
    rated: bool
    turn_seconds: int
    viewer_seat: int | None
    seats: tuple[ShownSeat, ...]
    me: ShownSeat | None
    stage: int
    #: The trump card while it lies under the stock (else ``None``: the suit alone is shown).
    trump_card: str | None
    trump_suit: str | None
    stock_count: int
    discard_count: int
    pairs: tuple[ShownPair, ...]
    #: "Olga takes the cards" while the defender has said "take" (public: everyone sees it).
    taking_text: str
    circle: tuple[str, ...]
    drawn: str | None
    #: Who drew ``drawn`` (circle stage 1), in words: "You drew" / "Olga drew".
    drawn_caption: str
    hand: tuple[HandCard, ...]
    choices: tuple[Choice, ...]
    your_move: bool
    status_text: str
    remaining_ms: int | None
    #: The viewer's own timeouts explained, with the warning before the one that ends in autopilot.
    timeout_note: str
    #: Only throwers are awaited: the timer counts the table's public throw-in window down.
    throw_in_window: bool
    throw_in_seconds: int
    log: tuple[LogLine, ...]
    last_seq: int
    #: The result panel of a finished match (``play.result_panel``).
    result: ResultPanel | None
    can_abort: bool
    can_resign: bool
    can_play_again: bool
    next_match_url: str | None
    #: The seed's commitment (``games.fairness``), shown from the deal so the seeds
    #: revealed at the end can be checked.
    commitment: str
    #: The commitment of the table's next deal, for the value sent with "play again" ("" if none).
    next_commitment: str = ""
    #: Whether this player's page sends its value for that deal on its own: only where the site
    #: deals the next game at this table (a tournament's pairing of several games) while it is
    #: still open. Elsewhere the value goes with "play again", or when a full table asks for it
    #: (``deal.wanted``): a finished game's page left open sends nothing.
    seed_wanted: bool = False

    @property
    def is_active(self) -> bool:
        return self.status == Match.Status.ACTIVE

    @property
    def urls(self) -> MatchUrls:
        """Where the page's forms post, reversed once per match rather than by ``{% url %}`` tags
        on every push (about 20 µs a tag, up to six a push)."""
        return _match_urls(self.match_id, get_script_prefix())

    @property
    def legal_json(self) -> str:
        """The legal actions with their words, as JSON for the card-choosing script (structured,
        so the script never parses notation)."""
        return json.dumps([choice.to_dict() for choice in self.choices])

    @property
    def circle_targets(self) -> frozenset[str]:
        """Circle cards the viewer's drawn card may beat now (circle stage 1)."""
        return frozenset(c.target for c in self.choices if c.kind == "beat" and c.target)

    @property
    def timer_seconds(self) -> int:
        """The full length of the running timer: the throw-in window's or the turn's."""
        return min(self.throw_in_seconds, self.turn_seconds) if self.throw_in_window else self.turn_seconds

    @property
    def remaining_seconds(self) -> int:
        """Whole seconds left on the turn timer (for the page before the script runs)."""
        return -(-(self.remaining_ms or 0) // 1000)

    @property
    def stock_text(self) -> SafeString:
        """The stock in words, "stock: <strong>12</strong> cards": the plural is made here, since
        the fragments' template asks for ``_("…")`` alone (``play.jinja``)."""
        return _counted(
            ngettext(
                "stock: <strong>%(counter)s</strong> card",
                "stock: <strong>%(counter)s</strong> cards",
                self.stock_count,
            ),
            self.stock_count,
        )

    @property
    def discard_text(self) -> SafeString:
        return _counted(
            ngettext(
                "discard: <strong>%(counter)s</strong> card",
                "discard: <strong>%(counter)s</strong> cards",
                self.discard_count,
            ),
            self.discard_count,
        )

    @property
    def seconds_unit(self) -> str:
        """The unit after the timer's seconds."""
        return pgettext("seconds", "s")

    @property
    def trump_suit_symbol(self) -> str:
        """The trump suit as ♠ ♣ ♦ ♥ (when no trump card is on show)."""
        return _suit_symbol(self.trump_suit)

    @property
    def buttons(self) -> tuple[Choice, ...]:
        """Actions that need no card chosen: take, pass, redeal."""
        return tuple(c for c in self.choices if c.kind in ("take", "pass", "redeal"))


def _counted(translated: str, count: int) -> SafeString:
    """A translated count whose words carry markup: the catalogue's text is the site's own, the
    number a whole number."""
    return mark_safe(translated % {"counter": count})


def present_match(
    loaded: LoadedMatch, user: User | AnonymousUser, *, now: datetime | None = None
) -> MatchContext:
    """Build ``user``'s context of the loaded match (players, table, hand, actions, status, log).

    Reads nothing: the players, the log lines (``loaded.moves``: the whole log for a page, the
    lines a socket has not sent yet for a push), the engine state and the next match at the table
    all come with ``loaded``.
    """
    match = loaded.match
    seat = loaded.seat_of(user)
    state = loaded.state
    active = match.status == Match.Status.ACTIVE
    if not active:
        seat_view = state.full_view()
    elif seat is None:
        seat_view = state.spectator_view()
    else:
        seat_view = state.view(seat)
    by_seat = {p.seat: p for p in loaded.players}
    names = {s: _player_name(p) for s, p in by_seat.items()}
    legal = list(seat_view.moves) if active and seat is not None else []
    awaiting: Mapping[int, str] = seat_view.awaiting if active else {}
    teams = bool(match.rules.get("teams"))
    seats = _seats(match, seat_view, by_seat, names, seat, awaiting, active, teams)
    me = next((s for s in seats if s.is_viewer), None)
    log_moves = loaded.moves
    last_seq = log_moves[-1].seq if log_moves else 0
    # The countdown is a human's: while only bots (or autopilots) are awaited it is not shown,
    # since they move long before it runs out.
    humans_awaited = any(
        (p := by_seat.get(s)) is not None and not (p.autopilot or p.user.is_bot) for s in awaiting
    )
    remaining = _remaining_ms(match, now) if active and humans_awaited else None
    next_url = None if loaded.next_match_id is None else reverse("games:match", args=[loaded.next_match_id])
    return MatchContext(
        match_id=match.pk,
        table_id=match.table_id,
        version=match.version,
        status=match.status,
        variant=variant_name(seat_view.variant),
        rated=bool(match.table.rated),
        turn_seconds=int(match.table.turn_seconds),
        viewer_seat=seat,
        seats=_around(seats, seat),
        me=me,
        stage=int(seat_view.stage),
        trump_card=_trump_on_show(seat_view),
        trump_suit=seat_view.trump_suit,
        stock_count=int(seat_view.stock_count),
        discard_count=int(seat_view.discard_count),
        pairs=_pairs(seat_view.table, legal),
        taking_text=_taking_text(seat_view, names, seat) if active else "",
        circle=tuple(seat_view.circle),
        drawn=seat_view.drawn,
        drawn_caption=_drawn_caption(seat_view, names, seat, awaiting),
        hand=_hand(_own_hand(seat_view, seat), seat_view.legal_cards if legal else ()),
        choices=_choices(legal, bito=_all_covered(seat_view)),
        your_move=seat is not None and seat in awaiting,
        status_text=_status_text(match, names, seat, awaiting),
        remaining_ms=remaining,
        timeout_note=_timeout_note(me) if active else "",
        throw_in_window=bool(awaiting) and all(code in THROW_IN_CODES for code in awaiting.values()),
        throw_in_seconds=int(match.table.throw_in_seconds),
        log=tuple(_log_lines(log_moves, names, seat)),
        last_seq=last_seq,
        result=result_panel(loaded, names, seat),
        # At a rated table an abort counts as a resignation (``services.playban``): the page offers
        # the resignation instead.
        can_abort=(
            active and seat is not None and match.version == 0 and not log_moves and not match.table.rated
        ),
        can_resign=active and seat is not None and not (me and me.autopilot),
        can_play_again=(
            not active
            and seat is not None
            and match.table.status != Table.Status.CLOSED
            and not match.table.managed
            and not next_url
        ),
        next_match_url=next_url,
        commitment=seed_commitment(match),
        next_commitment=seeding.commitment(match.table.server_seed) if match.table.server_seed else "",
        seed_wanted=(
            not active
            and me is not None
            and bool(match.table.server_seed)
            and bool(match.table.managed)
            and match.table.status != Table.Status.CLOSED
            and not next_url
        ),
    )


@dataclass(frozen=True, slots=True)
class MatchUrls:
    """The form targets of a match page."""

    action: str
    abort: str
    resign: str
    again: str


@lru_cache(maxsize=4096)
def _match_urls(match_id: int, script_prefix: str) -> MatchUrls:
    """``reverse`` reads the script prefix itself; it is in the key so a cached URL is always the
    one ``reverse`` would give now."""
    return MatchUrls(
        *(reverse(f"games:match_{name}", args=[match_id]) for name in ("action", "abort", "resign", "again"))
    )


def _trump_on_show(seat_view: View) -> str | None:
    """The trump card while it really lies face up under the stock (``docs/rules.md`` §1: it is the
    last card drawn), or in circle stage 1 until it is drawn; once drawn, only its suit is shown.

    >>> from types import SimpleNamespace as V
    >>> _trump_on_show(V(trump_card="6H", stock_count=1, stage=0, drawn=None))
    '6H'
    >>> _trump_on_show(V(trump_card="6H", stock_count=0, stage=0, drawn=None)) is None
    True
    """
    if seat_view.stock_count or (seat_view.stage == 1 and seat_view.drawn != seat_view.trump_card):
        return seat_view.trump_card
    return None


def _suit_symbol(suit: str | None) -> str:
    """``"D"`` -> ``"♦"`` (empty when there is no trump yet)."""
    return SUIT_SYMBOLS[SUITS.index(suit)] if suit and suit in SUITS else ""


# --- seats -----------------------------------------------------------------------------------


def _player_name(player: MatchPlayer) -> str:
    return str(player.user.public_name)


def _seats(
    match: Match,
    seat_view: View,
    players: Mapping[int, MatchPlayer],
    names: Mapping[int, str],
    seat: int | None,
    awaiting: Mapping[int, str],
    active: bool,
    teams: bool,
) -> list[ShownSeat]:
    """Every seat in seat order. Places and the fool come from the engine while the match runs
    and from the stored result (forfeits included) once it is over."""
    place_of = {s: i + 1 for i, group in enumerate(seat_view.places) for s in group}
    # In a team game a seat shows its team's fate rather than a place, and "fool" only for the
    # player left holding cards (docs/rules.md §3, Teams).
    result = (match.result or {}) if not active else {}
    losing = set(result.get("losing_team") or ())
    if result.get("fool") is not None:
        losing.add(result["fool"])
    out: list[ShownSeat] = []
    for position, count in enumerate(seat_view.hand_counts):
        player = players.get(position)
        cards = seat_view.hands[position] if seat_view.hands is not None and position != seat else []
        place = place_of.get(position) if active else (player.place if player else None)
        out.append(
            ShownSeat(
                position=position,
                name=names.get(position, _("Seat %(n)d") % {"n": position + 1}),
                is_bot=bool(player and player.user.is_bot),
                is_viewer=position == seat,
                card_count=int(count),
                cards=tuple(cards),
                is_attacker=active and seat_view.attacker == position,
                is_defender=active and seat_view.defender == position,
                awaiting=awaiting_words(awaiting.get(position, "")),
                place=None if teams and not active else place,
                fool=not active and position == result.get("fool"),
                lost=not active and position in losing,
                autopilot=bool(player and player.autopilot),
                resigned=bool(player and player.resigned),
                wants_again=bool(player and player.wants_again),
                team=(position % 2) if teams else None,
                timeouts=int(player.timeouts) if player and active and not player.autopilot else 0,
                rating=_rating_at_deal(player),
            )
        )
    return out


def _rating_at_deal(player: MatchPlayer | None) -> ShownRating | None:
    """The rating the seat's player had in the table's pool when the match was dealt."""
    if player is None or player.rating is None:
        return None
    return ShownRating(player.rating, player.rating_provisional)


def _around(seats: list[ShownSeat], seat: int | None) -> tuple[ShownSeat, ...]:
    """Opponents clockwise from the viewer's left (everyone from seat 0 for a spectator)."""
    if seat is None:
        return tuple(seats)
    n = len(seats)
    return tuple(seats[(seat + k) % n] for k in range(1, n))


# --- table and hand --------------------------------------------------------------------------


def _pairs(table: Iterable[tuple[str, str | None]], legal: Sequence[LegalMove]) -> tuple[ShownPair, ...]:
    """The bout's attack/cover pairs; open attack cards the viewer may cover are targets."""
    targets = {move.target for move in legal if move.kind == "cover"}
    pairs = []
    for attack, cover in table:
        pairs.append(ShownPair(attack, cover, cover is None and attack in targets))
    return tuple(pairs)


def _taking_text(seat_view: View, names: Mapping[int, str], seat: int | None) -> str:
    """Who is taking the bout's cards, in words (empty unless the defender said "take")."""
    if not seat_view.taking or seat_view.defender is None:
        return ""
    if seat_view.defender == seat:
        return _("You take the cards")
    return _("%(name)s takes the cards") % {"name": names.get(seat_view.defender, "?")}


def _drawn_caption(
    seat_view: View, names: Mapping[int, str], seat: int | None, awaiting: Mapping[int, str]
) -> str:
    """Whose drawn card waits to beat a circle card (circle stage 1), in words."""
    if not seat_view.drawn:
        return ""
    drawer = next((s for s, code in awaiting.items() if code == "beat"), None)
    if drawer is None:
        return _("The drawn card")
    if drawer == seat:
        return _("You drew")
    return _("%(name)s drew") % {"name": names.get(drawer, "?")}


def _own_hand(seat_view: View, seat: int | None) -> list[str]:
    """The viewer's cards: from their seat's view, or from the full view after the match."""
    if seat is None:
        return []
    if seat_view.hands is not None:
        return list(seat_view.hands[seat])
    return list(seat_view.hand)


def _hand(hand: Iterable[str] | None, legal_cards: Iterable[str]) -> tuple[HandCard, ...]:
    """The viewer's cards in the engine's order (sorted, trumps last); those some legal action
    plays (the view's ``legal_cards``) are marked."""
    if not hand:
        return ()
    used = set(legal_cards)
    return tuple(HandCard(code, code in used) for code in hand)


def _all_covered(seat_view: View) -> bool:
    """Whether a pass now means "bito": cards on the table, all covered, nobody taking."""
    return bool(seat_view.table) and all(cover for _attack, cover in seat_view.table) and not seat_view.taking


def _choices(legal: Iterable[LegalMove], *, bito: bool = False) -> tuple[Choice, ...]:
    """The legal actions with their words, each remembered in the active language (``_choice``)."""
    return tuple(_choice(move, bito) for move in legal)


@in_language(4096)
def _choice(move: LegalMove, bito: bool) -> Choice:
    """A legal action with its words. The awaited seat's every push words each of its legal
    actions again, a few dozen in a bout, and the words of one are several translations and card
    names; a language has a few thousand actions to word."""
    return Choice(move.notation, action_label(move, bito=bito), move.kind, move.cards, move.target)


# --- status and timer ------------------------------------------------------------------------


def _remaining_ms(match: Match, now: datetime | None) -> int | None:
    if match.deadline_at is None:
        return None
    now = now or timezone.now()
    return max(0, int((match.deadline_at - now).total_seconds() * 1000))


def _timeout_note(me: ShownSeat | None) -> str:
    """What the viewer's run of timeouts means: how many, and before the last one the warning."""
    if me is None or not me.timeouts:
        return ""
    left = MatchPlayer.AUTOPILOT_AFTER_TIMEOUTS - me.timeouts
    if left <= 1:
        return _(
            "Last warning: your time ran out %(count)d times in a row. If it runs out once more, a bot"
            " plays your seat and the game counts as lost for you."
        ) % {"count": me.timeouts}
    return ngettext(
        "Your time ran out: the timer played for you (%(count)d of %(limit)d before a bot takes your seat).",
        "Your time ran out %(count)d times in a row (%(limit)d and a bot takes your seat).",
        me.timeouts,
    ) % {"count": me.timeouts, "limit": MatchPlayer.AUTOPILOT_AFTER_TIMEOUTS}


def _status_text(
    match: Match,
    names: Mapping[int, str],
    seat: int | None,
    awaiting: Mapping[int, str],
) -> str:
    if match.status == Match.Status.ABORTED:
        return _("The game was aborted.")
    if match.status == Match.Status.FINISHED:
        return _("The game is over.")
    if seat is not None and seat in awaiting:
        return your_move_words(awaiting[seat])
    waiting = [names.get(s, "?") for s in sorted(awaiting)]
    if not waiting:
        return ""
    return _("Waiting for %(names)s") % {"names": ", ".join(waiting)}


# --- the move log in words -------------------------------------------------------------------


def _log_lines(moves: Iterable[Move], names: Mapping[int, str], seat: int | None) -> Iterable[LogLine]:
    for move in moves:
        for event in move.events or ():
            html = describe_event(event, names)
            if html:
                yield LogLine(
                    seq=int(move.seq),
                    html=html,
                    mine=seat is not None and event.get("seat") == seat,
                    event=event.get("kind") not in PLAYER_EVENT_KINDS,
                )


# --- the table page --------------------------------------------------------------------------


def present_table(table: Table, user: User | AnonymousUser, *, token: str, invite_url: str) -> dict[str, Any]:
    """The table page's context: seats, what this user may do, the invite link for insiders."""
    seats = {s.position: s for s in table.seats.all()}
    seated = user.is_authenticated and any(s.user_id == user.pk for s in seats.values())
    is_creator = user.is_authenticated and table.creator_id == user.pk
    match = table_current_match(table_id=table.pk)
    commitment = seeding.commitment(table.server_seed) if table.server_seed else ""
    sent = seated and bool(commitment) and seed_value_sent(commitment=commitment, user_id=user.pk or 0)
    shown = {user_id: r for (_pool, user_id), r in pool_ratings([table]).items()}
    return {
        "table": table,
        "positions": [
            (pos, seats.get(pos), _seat_rating(shown, seats.get(pos))) for pos in range(table.players)
        ],
        "free": table.players - len(seats),
        "seated": seated,
        "is_open": table.status == Table.Status.OPEN,
        #: Full, the deal waiting a few seconds for the seated players' values.
        "dealing": table.status == Table.Status.DEALING,
        "can_fill": (seated or is_creator) and table.status == Table.Status.OPEN and not table.rated,
        "invite": token,
        "invite_url": invite_url if table.private and (seated or is_creator) else None,
        "match": match,
        "match_url": reverse("games:match", args=[match.pk]) if match else None,
        "bot_form": BotFillForm(),
        "rules_lines": describe_rules(table.rules),
        #: The next deal's commitment, and whether this viewer's browser should send a value now.
        "seed_commitment": commitment,
        "seed_needed": seated and bool(commitment) and not sent and not getattr(user, "is_bot", False),
    }


def _seat_rating(shown: Mapping[int, ShownRating], seat: Any) -> ShownRating | None:
    return None if seat is None else shown.get(seat.user_id)


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
    #: The host has had neither the table's page nor the lobby open for a while (``services.limits``).
    host_away: bool = False
    #: The seated players' ratings in the table's pool, in the order of ``seated``.
    ratings: tuple[ShownRating | None, ...] = ()

    @property
    def free_seats(self) -> int:
        return self.players - len(self.seated)

    @property
    def seated_with_ratings(self) -> list[tuple[str, bool, ShownRating | None]]:
        """``(name, is_bot, rating)`` of each seated player."""
        ratings = self.ratings or (None,) * len(self.seated)
        return [(name, is_bot, rating) for (name, is_bot), rating in zip(self.seated, ratings, strict=True)]


def pool_ratings(tables: Iterable[Table]) -> dict[tuple[str, int], ShownRating]:
    """``(pool, user id) -> rating`` of everyone seated at ``tables`` (their seats loaded), in
    each table's pool: one read per pool rather than per table."""
    users: dict[str, dict[int, User]] = {}
    for table in tables:
        for seat in table.seats.all():
            users.setdefault(table_kind_pool(table.rules), {})[seat.user_id] = seat.user
    return {
        (pool, user_id): shown
        for pool, by_id in users.items()
        for user_id, shown in ratings.ratings(pool, list(by_id.values())).items()
    }


def host_away(table: Table, now: datetime) -> bool:
    """Whether the lobby shows the table's host as away: their table's page and the lobby have
    not been open for ``settings.GAMES_HOST_AWAY_SECONDS`` (``services.limits.host_seen``)."""
    seen = table.host_seen_at
    return seen is None or seen < now - timedelta(seconds=int(settings.GAMES_HOST_AWAY_SECONDS))


def present_lobby(tables: Iterable[Table]) -> list[TableSummary]:
    """The lobby's open tables (from ``selectors.open_tables``), in words, with the seated
    players' ratings in each table's pool."""
    now = timezone.now()
    tables = list(tables)
    shown = pool_ratings(tables)
    return [
        TableSummary(
            pk=table.pk,
            title=str(table),
            rated=table.rated,
            variant=variant_name(table.variant),
            players=table.players,
            deck=int(table.rules.get("deck", 36)),
            teams=bool(table.rules.get("teams")),
            turn_seconds=int(table.turn_seconds),
            seated=tuple((str(seat.user.public_name), bool(seat.user.is_bot)) for seat in table.seats.all()),
            host_away=host_away(table, now),
            ratings=tuple(
                shown.get((table_kind_pool(table.rules), seat.user_id)) for seat in table.seats.all()
            ),
        )
        for table in tables
    ]
