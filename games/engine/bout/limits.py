"""How many attack cards a bout may hold, the lead included (``docs/rules.md`` §3 "The
limit", §4 "The limit after a transfer", §5 "The limit", "No sixth card").

When a bout is to be led, and again after a transfer, the limit is the cards the defender
holds then, at most 6, and at most 5 before the game's first bito (``first_bout_limit_5``;
never in ``circle``). Two ``circle`` rules lower it during a bout: a joker that covers under
``throw_in_after_joker`` off closes the bout to throw-ins, and a 5-card lead that is taken
gets no sixth card.
"""

from __future__ import annotations

from ..data import GameData
from ..errors import IllegalAction
from ..refusals import ordinal
from ..rules import Rules


def limit_for(rules: Rules, defender_cards: int, bito_done: bool) -> int:
    """The limit against a defender holding ``defender_cards``."""
    limit = 6 if defender_cards > 6 else defender_cards
    if limit > 5 and not bito_done and rules.first_five:
        limit = 5
    return limit


def after_joker(rules: Rules, limit: int, laid: int) -> int:
    """The limit once a joker has covered, ``laid`` attack cards on the table: under
    ``throw_in_after_joker`` off nothing more is thrown in."""
    return limit if rules.throw_in_after_joker else laid


def after_take(limit: int, lead_size: int) -> int:
    """The limit once the defender takes: a bout led with 5 cards gets no sixth card [004]
    (only a ``circle`` stage-2 lead has 5 cards)."""
    return 5 if lead_size == 5 and limit > 5 else limit


def set_limit(s: GameData) -> None:
    """The limit against the defender as they hold now (a bout begins, or was transferred)."""
    s.defender_start = held = s.hands[s.defender].bit_count()
    s.attack_limit = limit_for(s.rules, held, s.bito_done)


def close_after_joker(s: GameData) -> None:
    """A joker has covered (see :func:`after_joker`)."""
    s.attack_limit = after_joker(s.rules, s.attack_limit, len(s.attack_cards))


def no_sixth_card(s: GameData) -> None:
    """The defender takes (see :func:`after_take`)."""
    s.attack_limit = after_take(s.attack_limit, s.lead_size)


def start_hand(cards_now: int, covers: list[int]) -> int:
    """The cards the defender held when the bout (or its last transfer) began: those they
    hold now and those they covered with since."""
    return cards_now + sum(1 for c in covers if c >= 0)


def bout_limit(s: GameData) -> int:
    """The limit the bout under way has reached, rebuilt from what everybody saw (a state
    restored from a view or a position): the defender's hand at its start, lowered after a
    joker's cover and after a take."""
    limit = limit_for(s.rules, s.defender_start, s.bito_done)
    if s.joker_covered:
        limit = after_joker(s.rules, limit, len(s.attack_cards))
    if s.taking:
        limit = after_take(limit, s.lead_size)
    return limit


def limit_refusal(s: GameData) -> IllegalAction:
    """Why the cards would break the limit: "the defender holds 2 cards: no third attack card"."""
    held = s.defender_start
    if s.joker_covered and not s.rules.throw_in_after_joker:
        return IllegalAction.of("after_joker")
    if s.attack_limit == held and held < 6:
        return IllegalAction.of("defender_limit", cards=held, ordinal=ordinal(held + 1))
    if s.attack_limit == 5 and s.rules.first_five and not s.bito_done:
        return IllegalAction.of("first_bout_limit")
    return IllegalAction.of("six_limit")
