"""The position notation: any reachable position as one line of text (python-chess's FEN, for
Durak).

``state.position()`` writes it and ``GameState.from_position(text)`` reads it back into a state
that plays on identically: the same legal actions, the same events, the same positions. It is
how a rule test sets up a late position (players out, a bout under way, a ``circle`` stage 1
half collected) and how a player copies a position into a bug report.

A position is the variant, then ``key=value`` tokens separated by spaces, in any order (a
position writes them in the order below). Only ``hands`` and ``trump`` are required; every
other token has a default, and a position leaves out each token that equals its default, so
each position has one spelling.

=============  ==================================================================  =========
token          value                                                               default
=============  ==================================================================  =========
(variant)      ``podkidnoy``, ``perevodnoy`` or ``circle``: the first word          required
(options)      a table option of :class:`~games.engine.rules.Rules` by its name     variant's
``seed``       the game's seed (percent-encoded); derived seeds make redeals and    empty
               the ``circle`` leftovers
``dealer``     the dealer's seat                                                    0
``trump``      the card that showed the trump (``6D``), or only its suit (``D``)    required
``hands``      every seat's hand, seats separated by ``/``, ``-`` for none          required
``stock``      the stock, top card first; while the turned-up trump lies under      empty
               it, it is the last card
``discard``    the discard pile                                                     empty
``circle``     ``circle`` stage 1: the face-up circle, in order                     empty
``drawn``      ``circle`` stage 1: the drawn card that must beat a circle card      none
``table``      the attack cards in the order laid, a covered one as ``7S>6S``      empty
               (the cover, then the card it covers, as in ``cover 7S>6S``)
``attacker``   the bout's attacker; ``rules`` in a fresh deal: found as at a deal   required
``defender``   the defender                                                         next opponent
``leader``     who led the bout (the draw starts with them)                         attacker
``throwers``   the seats allowed to throw in this bout                              the rules'
``held``       the cards the defender held when the bout (or its last transfer)     hand + covers
               began
``limit``      the most attack cards the bout may hold                              the rules'
``lead``       ``circle`` stage 2: how many cards the bout was led with             cards on table
``passed``     throwers who passed since the table last changed                     none
``taking``     ``yes`` once the defender has declared the take                      ``no``
``shown``      trumps shown this bout to transfer                                   none
``turn``       whose turn it is where the roles do not say: the drawer in           none
               ``circle`` stage 1, the thrower of a stage-2 throw-in round
``bito``       ``yes`` once the game's first bito has happened                      ``no``
``places``     the finishing order: places separated by ``/``, seats by ``,``       none
``out``        the seats that are out                                               ``places``
``actions``    actions played so far (the move cap counts them)                     0
``redeals``    redeals so far                                                       0
``opened``     ``yes`` when a redeal table's first card has been laid               a bout is on
``opening``    the lowest trump shown for the first attack                          none
``result``     a finished game: ``fool:1``, ``team:1,3`` (``team:1,3:3``: seat 3,    none
               left holding cards, is the fool), or a draw's reason and
               seats (``draw:0,2``, ``move_cap:0,1``, ``jokers_only:2,3``)
=============  ==================================================================  =========

Cards are in the action notation (``6S``, ``10H``, ``RJ``), lists separated by commas, ``-``
for an empty list; booleans are ``yes`` / ``no``. The tokens of the bout (``table`` to
``shown``) belong to a game that is neither over nor in ``circle`` stage 1; a ``circle``
position is in stage 1 when it has a drawn card, or a drawer (``turn``) and no table. The
phase follows: over with a ``result``, a bout with cards on the table, else a lead.

Two spellings are only read, never written, because the engine never stops there (it stops
where someone chooses): stage 1 with ``turn`` and no ``drawn`` is the seat about to draw, and
reading plays the draws nobody chooses on to the next choice; ``attacker=rules`` is a fresh
deal whose first bout the engine opens as the rules do (the lowest trump leads and is shown as
``opening``). A drawn card that beats no circle card is refused: it would have joined the
circle, so the ``beat`` the position waits for could never come.

>>> from games.engine import Action, GameState
>>> s = GameState.from_position("podkidnoy trump=6D hands=6S,7C/7S,8S/9H attacker=0 bito=yes")
>>> s.awaiting(), s.defender, s.attack_limit
({0: 'lead'}, 1, 2)
>>> _ = s.apply(0, Action.parse("attack 6S"))
>>> s.position()
'podkidnoy trump=6D hands=7C/7S,8S/9H table=6S attacker=0 bito=yes actions=1'
>>> [str(a) for a in GameState.from_position(s.position()).legal_actions(1)]
['cover 7S>6S', 'cover 8S>6S', 'take']
>>> GameState.from_position("podkidnoy trump=6D hands=7D,8S/6S,9D stock=QS,6D attacker=rules").position()
'podkidnoy trump=6D hands=7D,8S/6S,9D stock=QS,6D attacker=0 opening=7D'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Final, TypeVar
from urllib.parse import quote, unquote

from .bout.limits import bout_limit, start_hand
from .bout.throwers import throwers_for
from .cards import BEATEN_BY, CARD_NAMES, RED_JOKER, SUITS, card_from_str, cards_of, deck_cards, mask_of
from .circle.rounds import round_order_for
from .data import GameData
from .deal import start_play
from .phases import BEAT_CHOICE, BOUT, LEAD, OVER
from .refusals import Refusal, gettext_noop
from .result import Result
from .ring import next_opponent
from .rules import TABLE_REFUSALS, Rules, RulesError

S = TypeVar("S", bound=GameData)

#: Every token but the variant, in the order a position writes them.
TOKENS: Final = (
    "seed",
    "dealer",
    "trump",
    "hands",
    "stock",
    "discard",
    "circle",
    "drawn",
    "table",
    "attacker",
    "defender",
    "leader",
    "throwers",
    "held",
    "limit",
    "lead",
    "passed",
    "taking",
    "shown",
    "turn",
    "bito",
    "places",
    "out",
    "actions",
    "redeals",
    "opened",
    "opening",
    "result",
)
_OPTIONS: Final = tuple(f.name for f in fields(Rules) if f.name not in ("variant", "players"))
_SEED_SAFE: Final = "!#$&'()*+,/:;=?@[]~"
_DRAW_REASONS: Final = ("draw", "move_cap", "jokers_only")
#: ``attacker=`` of a fresh deal whose first attacker the engine finds by the rules.
FOUND_BY_RULES: Final = "rules"


#: Every sentence a position is refused with, by its stable code, declared once as the refusals
#: of an action and of a table are: the engine renders the English, the site translates the same
#: template by the code (``games.words.position_message``). Cards and tokens in the params stay
#: in the notation the text was written in.
POSITION_REFUSALS: Final[Mapping[str, Refusal]] = {
    r.code: r
    for r in (
        Refusal("empty", gettext_noop("an empty position")),
        Refusal("not_key_value", gettext_noop("'%(word)s' is not key=value")),
        Refusal("unknown_token", gettext_noop("unknown token '%(token)s'")),
        Refusal("given_twice", gettext_noop("'%(token)s' is given twice")),
        Refusal("needs_token", gettext_noop("a position needs %(token)s=")),
        Refusal("this_needs_token", gettext_noop("this position needs %(token)s=")),
        Refusal(
            "needs_attacker",
            gettext_noop("this position needs attacker= (attacker=%(rules)s in a fresh deal)"),
        ),
        Refusal("not_a_card", gettext_noop("'%(text)s' is not a card (write 6S, 10H, QD, AC, RJ or BJ)")),
        Refusal("not_one_card", gettext_noop("'%(text)s' is not one card")),
        Refusal("not_seats", gettext_noop("'%(text)s' is not a list of seats")),
        Refusal("not_a_number", gettext_noop("'%(text)s' is not a number")),
        Refusal("not_yes_no", gettext_noop("'%(text)s' is not yes or no")),
        Refusal("not_a_result", gettext_noop("'%(text)s' is not a result (fool:1, team:1,3, draw:0,2...)")),
        Refusal("no_seat", gettext_noop("there is no seat %(seat)s")),
        Refusal("joker_trump", gettext_noop("a joker cannot be the trump card")),
        Refusal("stock_trump", gettext_noop("the turned-up trump card is the stock's last card")),
        Refusal("two_places", gettext_noop("%(card)s is in two places")),
        Refusal("not_in_deck", gettext_noop("%(card)s is not in this table's deck")),
        Refusal(
            "stage1_bout",
            gettext_noop("circle stage 1 (drawn=, or turn= with no table) has no bout: no %(token)s="),
        ),
        Refusal(
            "bout_tokens",
            gettext_noop("only a position with a lead or a bout under way has the bout's tokens"),
        ),
        Refusal(
            "drawn_beats_nothing",
            gettext_noop(
                "the drawn %(card)s beats no circle card, so no beat can follow "
                "(a card that beats nothing joins the circle)"
            ),
        ),
        Refusal("nobody_to_attack", gettext_noop("the attacker has nobody to attack")),
        Refusal("turn", gettext_noop("turn= is the drawer of circle stage 1 or a stage-2 round's thrower")),
        Refusal("not_thrower", gettext_noop("seat %(seat)s does not throw in this bout")),
        Refusal(
            "fresh_deal_table",
            gettext_noop("attacker=%(rules)s is a fresh deal: with cards on the table, name the attacker"),
        ),
        Refusal(
            "fresh_deal_token",
            gettext_noop("attacker=%(rules)s opens the bout as the rules do: no %(token)s="),
        ),
    )
}


class PositionError(ValueError):
    """Text that is not a position; ``str(err)`` says why. Like
    :class:`~games.engine.rules.RulesError` it carries a stable ``code`` and ``params``, so the
    site translates the declared sentence (:data:`POSITION_REFUSALS`). A position that names an
    impossible table is refused with the table's own code and sentence (:meth:`of_table`).

    >>> e = PositionError.of("two_places", card="6S")
    >>> str(e), e.code, e.params, e.refusal.template
    ('6S is in two places', 'two_places', {'card': '6S'}, '%(card)s is in two places')
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, object] = params

    @classmethod
    def of(cls, code: str, **params: object) -> PositionError:
        """The declared refusal ``code`` with ``params`` (``KeyError`` for an undeclared code)."""
        return cls(code, POSITION_REFUSALS[code].render(params), **params)

    @classmethod
    def of_table(cls, error: RulesError) -> PositionError:
        """The impossible table ``error`` as the position's refusal, keeping its code, so the
        site says it as it says the table's refusal anywhere else."""
        return cls(error.code, error.message, **error.params)

    @property
    def refusal(self) -> Refusal | None:
        """The declared sentence of this code, a position's or a table's (the two sets of codes
        are disjoint); None for a code the engine does not declare."""
        return POSITION_REFUSALS.get(self.code) or TABLE_REFUSALS.get(self.code)


# ---------------------------------------------------------------------- values


def _cards(cards: list[int]) -> str:
    return ",".join(CARD_NAMES[c] for c in cards) or "-"


def _seats(seats: list[int] | tuple[int, ...]) -> str:
    return ",".join(map(str, seats)) or "-"


def _mask_seats(mask: int) -> list[int]:
    return [t for t in range(mask.bit_length()) if mask >> t & 1]


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _option(value: object) -> str:
    return _yes(value) if isinstance(value, bool) else str(value)


def _parse_card(text: str) -> int:
    try:
        return card_from_str(text)
    except ValueError:
        raise PositionError.of("not_a_card", text=text) from None


def _parse_cards(text: str) -> list[int]:
    if text == "-":
        return []
    return [_parse_card(c) for c in text.split(",")]


def _parse_seats(text: str) -> list[int]:
    if text == "-":
        return []
    try:
        return [int(t) for t in text.split(",")]
    except ValueError:
        raise PositionError.of("not_seats", text=text) from None


def _parse_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PositionError.of("not_a_number", text=text) from None


def _parse_yes(text: str) -> bool:
    if text not in ("yes", "no"):
        raise PositionError.of("not_yes_no", text=text)
    return text == "yes"


def _parse_option(default: object, text: str) -> object:
    if isinstance(default, bool):
        return _parse_yes(text)
    if isinstance(default, int):
        return _parse_int(text)
    return text


# ---------------------------------------------------------------------- derived defaults


def _default_defender(s: GameData) -> int:
    return next_opponent(s.hands, s.attacker, s.rules.teams)


def _default_throwers(s: GameData) -> tuple[int, ...]:
    return throwers_for(s.rules, s.hands, s.attacker, s.defender)


def _default_held(s: GameData) -> int:
    return start_hand(s.hands[s.defender].bit_count(), s.covers)


def _default_lead(s: GameData) -> int:
    """Only ``circle`` stage 2 reads how many cards a bout was led with."""
    return len(s.attack_cards) if s.stage == 2 and s.phase == BOUT else 0


def _out_of_places(places: list[list[int]]) -> int:
    return mask_of(t for p in places for t in p)


# ---------------------------------------------------------------------- writing


def _result(r: Result) -> str:
    if r.draw:
        return f"{r.reason}:{_seats(r.drawn_seats)}"
    if r.losing_team is not None:
        fool = "" if r.fool is None else f":{r.fool}"
        return f"team:{_seats(r.losing_team)}{fool}"
    return f"fool:{r.fool}"


def write_position(s: GameData) -> str:
    """The position of ``s`` (see the module docstring)."""
    rules = s.rules
    defaults = Rules.for_variant(rules.variant, rules.players)
    out = [rules.variant]
    for k in _OPTIONS:
        if getattr(rules, k) != getattr(defaults, k):
            out.append(f"{k}={_option(getattr(rules, k))}")
    if s.seed:
        out.append(f"seed={quote(s.seed, safe=_SEED_SAFE)}")
    if s.dealer:
        out.append(f"dealer={s.dealer}")
    out.append("trump=" + (CARD_NAMES[s.trump_card] if s.trump_card >= 0 else SUITS[s.trump_suit]))
    out.append("hands=" + "/".join(_cards(cards_of(h)) for h in s.hands))
    stock = s.stock[::-1] + ([s.center] if s.center >= 0 else [])
    if stock:
        out.append(f"stock={_cards(stock)}")
    if s.discard:
        out.append(f"discard={_cards(cards_of(s.discard))}")
    if s.circle:
        out.append(f"circle={_cards(s.circle)}")
    if s.drawn >= 0:
        out.append(f"drawn={CARD_NAMES[s.drawn]}")
    if s.attack_cards:  # a game capped by max_actions ends with cards on the table
        entries = [
            CARD_NAMES[a] if c < 0 else f"{CARD_NAMES[c]}>{CARD_NAMES[a]}"
            for a, c in zip(s.attack_cards, s.covers, strict=True)
        ]
        out.append("table=" + ",".join(entries))
    if s.phase in (LEAD, BOUT):
        out += _bout_tokens(s)
    elif s.phase == BEAT_CHOICE:
        out.append(f"turn={s.stage1_turn}")
    if s.bito_done:
        out.append("bito=yes")
    if s.places:
        out.append("places=" + "/".join(_seats(p) for p in s.places))
    if s.out_mask != _out_of_places(s.places):
        out.append(f"out={_seats(_mask_seats(s.out_mask))}")
    if s.actions_played:
        out.append(f"actions={s.actions_played}")
    if s.redeals:
        out.append(f"redeals={s.redeals}")
    if rules.redeal and s.phase == LEAD and s.opened:
        out.append("opened=yes")
    if s.opening_trump >= 0:
        out.append(f"opening={CARD_NAMES[s.opening_trump]}")
    if s.game_result is not None:
        out.append(f"result={_result(s.game_result)}")
    return " ".join(out)


def _bout_tokens(s: GameData) -> list[str]:
    out = []
    out.append(f"attacker={s.attacker}")
    if s.defender != _default_defender(s):
        out.append(f"defender={s.defender}")
    if s.leader != s.attacker:
        out.append(f"leader={s.leader}")
    if s.throwers != _default_throwers(s):
        out.append(f"throwers={_seats(s.throwers)}")
    if s.defender_start != _default_held(s):
        out.append(f"held={s.defender_start}")
    if s.attack_limit != bout_limit(s):
        out.append(f"limit={s.attack_limit}")
    if s.stage == 2 and s.lead_size != _default_lead(s):
        out.append(f"lead={s.lead_size}")
    if s.passed:
        out.append(f"passed={_seats(_mask_seats(s.passed))}")
    if s.taking:
        out.append("taking=yes")
    if s.shown:
        out.append(f"shown={_cards(cards_of(s.shown))}")
    if s.round_position >= 0:
        out.append(f"turn={s.round_order[s.round_position]}")
    return out


# ---------------------------------------------------------------------- reading

#: The tokens of a bout: only a position with a lead or a bout under way has them.
_BOUT_TOKENS: Final = (
    "attacker",
    "defender",
    "leader",
    "throwers",
    "held",
    "limit",
    "lead",
    "passed",
    "taking",
    "shown",
)


def _tokens(text: str) -> tuple[str, dict[str, str]]:
    words = text.split()
    if not words:
        raise PositionError.of("empty")
    variant, pairs = words[0], {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep or not value:
            raise PositionError.of("not_key_value", word=word)
        if key not in TOKENS and key not in _OPTIONS:
            raise PositionError.of("unknown_token", token=key)
        if key in pairs:
            raise PositionError.of("given_twice", token=key)
        pairs[key] = value
    for key in ("trump", "hands"):
        if key not in pairs:
            raise PositionError.of("needs_token", token=key)
    return variant, pairs


def _required(pairs: dict[str, str], key: str) -> str:
    if key not in pairs:
        raise PositionError.of("this_needs_token", token=key)
    return pairs[key]


def _seat(text: str, players: int) -> int:
    t = _parse_int(text)
    if not 0 <= t < players:
        raise PositionError.of("no_seat", seat=t)
    return t


def _one_card(text: str) -> int:
    cards = _parse_cards(text)
    if len(cards) != 1:
        raise PositionError.of("not_one_card", text=text)
    return cards[0]


def _rules(variant: str, players: int, pairs: dict[str, str]) -> Rules:
    try:
        defaults = Rules.for_variant(variant, players)
        options = {k: _parse_option(getattr(defaults, k), pairs[k]) for k in _OPTIONS if k in pairs}
        return Rules.for_variant(variant, players, **options)
    except RulesError as exc:
        raise PositionError.of_table(exc) from None


def _trump(text: str) -> tuple[int, int]:
    """(trump card or -1, trump suit)."""
    if text in SUITS:
        return -1, SUITS.index(text)
    card = _one_card(text)
    if card >= RED_JOKER:
        raise PositionError.of("joker_trump")
    return card, card & 3


def _table(text: str) -> tuple[list[int], list[int]]:
    attack: list[int] = []
    covers: list[int] = []
    if text != "-":
        for entry in text.split(","):
            cover, sep, card = entry.rpartition(">")
            attack.append(_one_card(card))
            covers.append(_one_card(cover) if sep else -1)
    return attack, covers


def _parse_result(text: str, places: list[list[int]]) -> Result:
    kind, _, seats_text = text.partition(":")
    if kind == "team":
        team_text, _, fool_text = seats_text.partition(":")
        team = tuple(_parse_seats(team_text or "-"))
        fools = tuple(_parse_seats(fool_text)) if fool_text else ()
        if len(team) == 2 and len(fools) <= 1 and set(fools) <= set(team):
            return Result(places, fools[0] if fools else None, (team[0], team[1]))
        raise PositionError.of("not_a_result", text=text)
    seats = tuple(_parse_seats(seats_text or "-"))
    if kind == "fool" and len(seats) == 1:
        return Result(places, seats[0])
    if kind in _DRAW_REASONS:
        return Result(places, draw=True, reason=kind, drawn_seats=seats)
    raise PositionError.of("not_a_result", text=text)


def _stage(variant: str, pairs: dict[str, str]) -> int:
    """0 outside ``circle``; ``circle`` is in stage 1 with a drawn card, or with a drawer and
    nothing on the table (a seat about to draw), else in stage 2."""
    if variant != "circle":
        return 0
    if "drawn" in pairs or ("turn" in pairs and "table" not in pairs and "result" not in pairs):
        return 1
    return 2


def read_position(text: str, class_for: Callable[[Rules, int], type[S]]) -> S:
    """The state of the position ``text``, of the class ``class_for(rules, stage)``."""
    variant, pairs = _tokens(text)
    hands = [mask_of(_parse_cards(h)) for h in pairs["hands"].split("/")]
    rules = _rules(variant, len(hands), pairs)
    drawn = _one_card(pairs["drawn"]) if "drawn" in pairs else -1
    stage = _stage(variant, pairs)
    trump_card, trump_suit = _trump(pairs["trump"])
    stock = _parse_cards(pairs.get("stock", "-"))
    if stock and stock[-1] != trump_card:
        raise PositionError.of("stock_trump")
    center = stock.pop() if stage == 1 and stock else -1
    attack, covers = _table(pairs.get("table", "-"))
    places = [_parse_seats(p) for p in pairs["places"].split("/")] if "places" in pairs else []
    s = class_for(rules, stage)(
        rules,
        unquote(pairs.get("seed", "")),
        _seat(pairs.get("dealer", "0"), rules.players),
        trump_suit=trump_suit,
        trump_card=trump_card,
        hands=hands,
        stock=stock[::-1],
        discard=mask_of(_parse_cards(pairs.get("discard", "-"))),
        attack_cards=attack,
        covers=covers,
        bito_done=_parse_yes(pairs.get("bito", "no")),
        places=places,
        out_mask=mask_of(_parse_seats(pairs["out"])) if "out" in pairs else _out_of_places(places),
        actions_played=_parse_int(pairs.get("actions", "0")),
        redeals=_parse_int(pairs.get("redeals", "0")),
        joker_covered=any(c >= RED_JOKER for c in covers),
        stage=stage,
        circle=_parse_cards(pairs.get("circle", "-")),
        center=center,
        drawn=drawn,
        opening_trump=_one_card(pairs["opening"]) if "opening" in pairs else -1,
    )
    if "result" in pairs:
        s.phase = OVER
        s.game_result = _parse_result(pairs["result"], [p[:] for p in places])
    elif stage == 1:
        s.phase = BEAT_CHOICE
        s.stage1_turn = _seat(_required(pairs, "turn"), rules.players)
    else:
        s.phase = BOUT if attack else LEAD
        _read_bout(s, pairs)
    bout = [k for k in _BOUT_TOKENS if k in pairs]
    if s.phase not in (LEAD, BOUT) and bout:
        if s.stage == 1:
            raise PositionError.of("stage1_bout", token=bout[0])
        raise PositionError.of("bout_tokens")
    _check_cards(s)
    if s.phase == BEAT_CHOICE:
        _read_draw(s)
    s.opened = _parse_yes(pairs["opened"]) if "opened" in pairs else s.phase in (BOUT, OVER)
    return s


def _read_draw(s: GameData) -> None:
    """``circle`` stage 1: a drawn card must beat a circle card (one that beats none joins the
    circle as it is turned up, so a position waiting for its ``beat`` could never go on); with
    no drawn card the seat in turn is about to draw, and the engine plays on through the draws
    nobody chooses to the next choice, as after a ``beat``."""
    if s.drawn < 0:
        s.draw_on(None)
    elif not BEATEN_BY[(s.trump_suit, s.rules.joker_beats)][s.drawn] & mask_of(s.circle):
        raise PositionError.of("drawn_beats_nothing", card=CARD_NAMES[s.drawn])


def _read_bout(s: GameData, pairs: dict[str, str]) -> None:
    """The bout's tokens, each defaulting to what the rules make of the others."""
    players = s.players
    if pairs.get("attacker") == FOUND_BY_RULES:
        _open_deal(s, pairs)
        return
    if "attacker" not in pairs:
        raise PositionError.of("needs_attacker", rules=FOUND_BY_RULES)
    s.attacker = _seat(pairs["attacker"], players)
    s.defender = _seat(pairs["defender"], players) if "defender" in pairs else _default_defender(s)
    if s.defender in (-1, s.attacker):
        raise PositionError.of("nobody_to_attack")
    s.leader = _seat(pairs["leader"], players) if "leader" in pairs else s.attacker
    s.throwers = tuple(_parse_seats(pairs["throwers"])) if "throwers" in pairs else _default_throwers(s)
    s.defender_start = _parse_int(pairs["held"]) if "held" in pairs else _default_held(s)
    s.lead_size = _parse_int(pairs["lead"]) if "lead" in pairs else _default_lead(s)
    s.passed = mask_of(_parse_seats(pairs["passed"])) if "passed" in pairs else 0
    s.taking = _parse_yes(pairs.get("taking", "no"))
    s.shown = mask_of(_parse_cards(pairs.get("shown", "-")))
    s.attack_limit = _parse_int(pairs["limit"]) if "limit" in pairs else bout_limit(s)
    if "turn" in pairs:
        if s.stage != 2 or s.phase != BOUT:
            raise PositionError.of("turn")
        s.round_order = round_order_for(s.defender, players, s.throwers)
        turn = _seat(pairs["turn"], players)
        if turn not in s.round_order:
            raise PositionError.of("not_thrower", seat=turn)
        s.round_position = s.round_order.index(turn)
        s.round_added = -1 in s.covers


def _open_deal(s: GameData, pairs: dict[str, str]) -> None:
    """``attacker=rules``: a fresh deal, whose first bout the engine opens as at a deal
    (``docs/rules.md`` §2 "The first attack"): the lowest trump in hand leads and is shown
    (``opening``), else the dealer's left. So the rest of the bout follows from it too."""
    if s.phase != LEAD:
        raise PositionError.of("fresh_deal_table", rules=FOUND_BY_RULES)
    given = [k for k in (*_BOUT_TOKENS, "turn", "opening") if k in pairs and k != "attacker"]
    if given:
        raise PositionError.of("fresh_deal_token", rules=FOUND_BY_RULES, token=given[0])
    holder = next((t for t, h in enumerate(s.hands) if h), -1)
    if holder < 0 or next_opponent(s.hands, holder, s.rules.teams) < 0:
        raise PositionError.of("nobody_to_attack")
    start_play(s)


def _check_cards(s: GameData) -> None:
    """Every card at most once, and from the table's deck."""
    places = [*s.hands, s.discard, mask_of(s.stock), mask_of(s.circle), mask_of(s.attack_cards)]
    places.append(mask_of(c for c in (*s.covers, s.center, s.drawn) if c >= 0))
    seen = 0
    for mask in places:
        if seen & mask:
            raise PositionError.of("two_places", card=CARD_NAMES[(seen & mask).bit_length() - 1])
        seen |= mask
    deck = mask_of(deck_cards(s.rules.deck, s.rules.jokers))
    strays = (seen | (1 << s.trump_card if s.trump_card >= 0 else 0)) & ~deck
    if strays:
        raise PositionError.of("not_in_deck", card=CARD_NAMES[strays.bit_length() - 1])
