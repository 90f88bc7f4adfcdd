"""Why an action is illegal, in a player's words.

Kept apart from the rules of play: ``GameState`` decides legality by generating legal
actions; when an action is not among them, this module finds the sentence that
explains it ("7♠ does not beat 9♠", "the defender holds 2 cards: no third attack card")
with a stable ``code`` and ``params`` for translation; every sentence is declared once, in
:mod:`.refusals`.
"""

from __future__ import annotations

from .actions import ATTACK, BEAT, COVER, PASS, REDEAL, SHOW, TAKE, TRANSFER, FastAction
from .cards import JOKERS_MASK, RANK_GROUP, SUIT_MASK, card_label, cards_of
from .errors import IllegalAction
from .refusals import ordinal
from .state import BEAT_CHOICE, BOUT, LEAD, OVER, GameState, is_circle_lead_shape


def _label_all(mask: int) -> str:
    return " ".join(card_label(c) for c in cards_of(mask))


def why_illegal(s: GameState, seat: int, fa: FastAction) -> IllegalAction | None:
    """Why ``seat`` may not play ``fa`` here, or None when it may."""
    kind, mask, target = fa
    if s.phase == OVER:
        return IllegalAction.of("game_over")
    if not 0 <= seat < s.n:
        return IllegalAction.of("no_such_seat", seat=seat)
    if kind in (ATTACK, COVER, TRANSFER, SHOW, BEAT) and not mask:
        return IllegalAction.of("no_cards")
    if kind == ATTACK and s.phase == LEAD and seat == s.attacker:
        if not mask & ~s.hands[seat] and s._lead_ok(mask):
            return None
    elif fa in s.legal_fast(seat):
        return None
    hand = s.hands[seat]
    if kind in (ATTACK, TRANSFER, SHOW, COVER) and mask & ~hand:
        missing = _label_all(mask & ~hand)
        return IllegalAction.of("not_in_hand", cards=missing)
    ph = s.phase
    if kind == REDEAL:
        if not s.rules.redeal:
            return IllegalAction.of("no_redeal_rule")
        return IllegalAction.of("no_redeal")
    if ph == BOUT and kind == ATTACK and seat != s.defender and seat in s.thr:
        return _why_bad_throw_in(s, seat, mask)
    if seat not in s.actors():
        if s.phase == BOUT and seat != s.defender and seat not in s.thr:
            if s.rules.teams and seat == (s.defender + 2) % 4:
                return IllegalAction.of("partner")
            if s.rules.throw_in == "neighbours" and s.hands[seat]:
                return IllegalAction.of("not_neighbour")
        if s.phase == BOUT and s.stage == 2 and seat == s.defender:
            return IllegalAction.of("round_under_way")
        return IllegalAction.of("not_your_turn")
    if ph == BEAT_CHOICE:
        if kind != BEAT:
            return IllegalAction.of("must_beat")
        if mask != 1 << s.drawn:
            return IllegalAction.of("not_drawn")
        if target not in s.circle:
            return IllegalAction.of("not_in_circle")
        return IllegalAction.of("does_not_beat", cover=card_label(s.drawn), attack=card_label(target))
    if ph == LEAD:
        if seat != s.attacker:
            return IllegalAction.of("not_your_turn")
        if kind != ATTACK:
            return IllegalAction.of("must_lead")
        return _why_bad_lead(s, mask)
    # BOUT
    if seat == s.defender:
        if kind == ATTACK:
            return IllegalAction.of("defender_attacks")
        if kind == PASS:
            return IllegalAction.of("defender_passes")
        if kind == COVER:
            return _why_bad_cover(s, mask, target)
        if kind in (TRANSFER, SHOW):
            return _why_bad_transfer(s, kind, mask)
        return IllegalAction.of("not_now")
    if kind in (COVER, TRANSFER, SHOW, TAKE):
        return IllegalAction.of("not_defender")
    return IllegalAction.of("not_now")


def _why_bad_throw_in(s: GameState, seat: int, mask: int) -> IllegalAction | None:
    """A throw-in by a seat allowed to throw in this bout: None when it is legal (a
    several-card throw-in of cards that are each legal)."""
    if s.stage == 2:
        if s.rnd_pos < 0:
            return IllegalAction.of("round_not_open")
        if s.rnd_order[s.rnd_pos] != seat:
            return IllegalAction.of("not_your_round_turn")
    elif s.passed >> seat & 1:
        return IllegalAction.of("passed")
    if len(s.att) + mask.bit_count() > s.cap:
        return _limit_error(s)
    bad = mask & ~s.tranks
    if bad:
        return IllegalAction.of("rank_not_on_table", cards=_label_all(bad))
    return None


def _limit_error(s: GameState) -> IllegalAction:
    d = s.dstart
    if s.joker_covered and not s.rules.throw_in_after_joker:
        return IllegalAction.of("after_joker")
    if s.cap == d and d < 6:
        return IllegalAction.of("defender_limit", cards=d, ordinal=ordinal(d + 1))
    if s.cap == 5 and s.rules.first_five and not s.bito_done:
        return IllegalAction.of("first_bout_limit")
    return IllegalAction.of("six_limit")


def _why_bad_lead(s: GameState, mask: int) -> IllegalAction:
    if mask & JOKERS_MASK:
        return IllegalAction.of("joker_lead")
    if s.stage == 2:
        if is_circle_lead_shape(mask):
            return _limit_error(s)
        return IllegalAction.of("circle_lead")
    ranks = {c >> 2 for c in cards_of(mask)}
    if len(ranks) > 1:
        return IllegalAction.of("one_rank")
    return _limit_error(s)


def _why_bad_cover(s: GameState, mask: int, target: int) -> IllegalAction:
    if mask.bit_count() != 1:
        return IllegalAction.of("one_cover")
    if target not in s.att:
        return IllegalAction.of("not_on_table", card=card_label(target))
    if s.cov[s.att.index(target)] >= 0:
        return IllegalAction.of("covered", card=card_label(target))
    card = mask.bit_length() - 1
    return IllegalAction.of("does_not_beat", cover=card_label(card), attack=card_label(target))


def _why_bad_transfer(s: GameState, kind: int, mask: int) -> IllegalAction:
    if not s.rules.transfers:
        return IllegalAction.of("no_transfer")
    if kind == SHOW and not s.rules.transfer_by_trump_show:
        return IllegalAction.of("no_show")
    if s.stage == 2 and s.lead_size != 1:
        return IllegalAction.of("transfer_single_lead")
    if max(s.cov) >= 0:
        return IllegalAction.of("transfer_after_cover")
    if mask & ~RANK_GROUP[s.att[0]]:
        return IllegalAction.of("transfer_rank")
    if kind == SHOW:
        if not mask & SUIT_MASK[s.trump]:
            return IllegalAction.of("show_trump")
        if mask & s.shown:
            return IllegalAction.of("shown_twice")
    nd = s._transfer_target()
    held = s.hands[nd].bit_count() if nd >= 0 else 0
    return IllegalAction.of("transfer_limit", cards=held)
