"""Covering an attack card (``docs/rules.md`` §3 "Cover"; §5 "Jokers").

An attack card is beaten by a higher card of its suit, or by any trump if it is not a trump;
a trump only by a higher trump; a joker beats what ``joker_beats`` allows and nothing beats a
joker (the table of beaters is :data:`games.engine.cards.BEATERS`). The defender covers one
card at a time, in any order. A cover's rank joins the ranks that may be thrown in; a
joker's does not, it has no rank.
"""

from __future__ import annotations

from ..actions import COVER, FastAction
from ..cards import RANK_GROUP, RED_JOKER, card_label
from ..data import GameData
from ..errors import IllegalAction
from ..events import Event
from .limits import close_after_joker


def add_covers(s: GameData, hand: int, out: list[FastAction]) -> None:
    """Append every cover of ``hand``: each uncovered attack card with each card beating it."""
    beaters = s.beaters
    covers = s.covers
    for i, attack in enumerate(s.attack_cards):
        if covers[i] < 0:
            m = hand & beaters[attack]
            while m:
                low = m & -m
                out.append((COVER, low, attack))
                m ^= low


def lay_cover(s: GameData, seat: int, mask: int, target: int, ev: list[Event] | None) -> None:
    """Lay the card of ``mask`` on the attack card ``target``: a change that reopens passes."""
    s.hands[seat] ^= mask
    card = mask.bit_length() - 1
    s.covers[s.attack_cards.index(target)] = card
    if card >= RED_JOKER:
        s.joker_covered = True
        close_after_joker(s)
    else:
        s.table_ranks |= RANK_GROUP[card]
    if ev is not None:
        ev.append(Event("cover", seat, (card,), target))
    s.passed = 0


def cover_refusal(s: GameData, mask: int, target: int) -> IllegalAction:
    """Why this cover is refused: several cards, no such attack card, covered, too low."""
    if mask.bit_count() != 1:
        return IllegalAction.of("one_cover")
    if target not in s.attack_cards:
        return IllegalAction.of("not_on_table", card=card_label(target))
    if s.covers[s.attack_cards.index(target)] >= 0:
        return IllegalAction.of("covered", card=card_label(target))
    cover = card_label(mask.bit_length() - 1)
    return IllegalAction.of("does_not_beat", cover=cover, attack=card_label(target))
