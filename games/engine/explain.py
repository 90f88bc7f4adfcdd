"""Why an action is illegal, in a player's words.

Kept apart from the rules of play: ``GameState`` decides legality by generating legal
actions; when an action is not among them, this module finds the sentence that
explains it ("7♠ does not beat 9♠", "the defender holds 2 cards: no third attack card")
with a stable ``code`` and ``params`` for translation.
"""

from __future__ import annotations

from .actions import ATTACK, BEAT, COVER, PASS, REDEAL, SHOW, TAKE, TRANSFER, FastAction
from .cards import JOKERS_MASK, RANK_GROUP, SUIT_MASK, card_label, cards_of
from .errors import IllegalAction
from .state import BEAT_CHOICE, BOUT, LEAD, OVER, GameState, is_circle_lead_shape


def _label_all(mask: int) -> str:
    return " ".join(card_label(c) for c in cards_of(mask))


def why_illegal(s: GameState, seat: int, fa: FastAction) -> IllegalAction | None:
    """Why ``seat`` may not play ``fa`` here, or None when it may."""
    kind, mask, target = fa
    if s.phase == OVER:
        return IllegalAction("game_over", "the game is over")
    if not 0 <= seat < s.n:
        return IllegalAction("no_such_seat", f"there is no seat {seat}", seat=seat)
    if kind in (ATTACK, COVER, TRANSFER, SHOW, BEAT) and not mask:
        return IllegalAction("no_cards", "name at least one card")
    if kind == ATTACK and s.phase == LEAD and seat == s.attacker:
        if not mask & ~s.hands[seat] and s._lead_ok(mask):
            return None
    elif fa in s.legal_fast(seat):
        return None
    hand = s.hands[seat]
    if kind in (ATTACK, TRANSFER, SHOW, COVER) and mask & ~hand:
        missing = _label_all(mask & ~hand)
        return IllegalAction("not_in_hand", f"you do not hold {missing}", cards=missing)
    ph = s.phase
    if kind == REDEAL:
        if not s.rules.redeal:
            return IllegalAction("no_redeal_rule", "this table plays without redeals")
        return IllegalAction(
            "no_redeal", "a redeal needs five or six cards of one suit, before the first attack"
        )
    if ph == BOUT and kind == ATTACK and seat != s.defender and seat in s.thr:
        return _why_bad_throw_in(s, seat, mask)
    if seat not in s.actors():
        if s.phase == BOUT and seat != s.defender and seat not in s.thr:
            if s.rules.teams and seat == (s.defender + 2) % 4:
                return IllegalAction("partner", "you may not throw in under your partner")
            if s.rules.throw_in == "neighbours" and s.hands[seat]:
                return IllegalAction(
                    "not_neighbour",
                    "only the attacker and the player after the defender may throw in",
                )
        if s.phase == BOUT and s.stage == 2 and seat == s.defender:
            return IllegalAction("round_under_way", "wait: the throw-in round is not over yet")
        return IllegalAction("not_your_turn", "it is not your turn")
    if ph == BEAT_CHOICE:
        if kind != BEAT:
            return IllegalAction("must_beat", "the drawn card must beat a circle card")
        if mask != 1 << s.drawn:
            return IllegalAction("not_drawn", "beat with the card you drew")
        if target not in s.circle:
            return IllegalAction("not_in_circle", "that card is not in the circle")
        return IllegalAction(
            "does_not_beat",
            f"{card_label(s.drawn)} does not beat {card_label(target)}",
            cover=card_label(s.drawn),
            attack=card_label(target),
        )
    if ph == LEAD:
        if seat != s.attacker:
            return IllegalAction("not_your_turn", "it is not your turn")
        if kind != ATTACK:
            return IllegalAction("must_lead", "you lead this bout: lay a card")
        return _why_bad_lead(s, mask)
    # BOUT
    if seat == s.defender:
        if kind == ATTACK:
            return IllegalAction("defender_attacks", "the defender does not throw in")
        if kind == PASS:
            return IllegalAction("defender_passes", "cover the cards or take them")
        if kind == COVER:
            return _why_bad_cover(s, mask, target)
        if kind in (TRANSFER, SHOW):
            return _why_bad_transfer(s, kind, mask)
        return IllegalAction("not_now", "not now")
    if kind in (COVER, TRANSFER, SHOW, TAKE):
        return IllegalAction("not_defender", "only the defender may do that")
    return IllegalAction("not_now", "not now")


def _why_bad_throw_in(s: GameState, seat: int, mask: int) -> IllegalAction | None:
    """A throw-in by a seat allowed to throw in this bout: None when it is legal (a
    several-card throw-in of cards that are each legal)."""
    if s.stage == 2:
        if s.rnd_pos < 0:
            return IllegalAction(
                "round_not_open",
                "throw-ins wait until the defender has covered every card",
            )
        if s.rnd_order[s.rnd_pos] != seat:
            return IllegalAction("not_your_turn", "it is not your turn to throw in")
    elif s.passed >> seat & 1:
        return IllegalAction("passed", "you passed: wait for a change on the table")
    if len(s.att) + mask.bit_count() > s.cap:
        return _limit_error(s)
    bad = mask & ~s.tranks
    if bad:
        return IllegalAction(
            "rank_not_on_table",
            f"no card of the rank of {_label_all(bad)} is on the table",
            cards=_label_all(bad),
        )
    return None


def _limit_error(s: GameState) -> IllegalAction:
    d = s.dstart
    if s.joker_covered and not s.rules.throw_in_after_joker:
        return IllegalAction("after_joker", "no more throw-ins after a joker covered")
    if s.cap == d and d < 6:
        return IllegalAction(
            "defender_limit",
            f"the defender holds {_cards(d)}: no {_ordinal(d + 1)} attack card",
            cards=d,
        )
    if s.cap == 5 and s.rules.first_five and not s.bito_done:
        return IllegalAction("first_bout_limit", "before the first bito a bout has at most 5 attack cards")
    return IllegalAction("six_limit", "a bout has at most 6 attack cards")


def _why_bad_lead(s: GameState, mask: int) -> IllegalAction:
    if mask & JOKERS_MASK:
        return IllegalAction("joker_lead", "a joker never leads: it only covers")
    if s.stage == 2:
        if is_circle_lead_shape(mask):
            return _limit_error(s)
        return IllegalAction(
            "circle_lead",
            "lead one card, a pair and a single, or two pairs and a single of different ranks",
        )
    ranks = {c >> 2 for c in cards_of(mask)}
    if len(ranks) > 1:
        return IllegalAction("one_rank", "a lead is one card or several of one rank")
    return _limit_error(s)


def _why_bad_cover(s: GameState, mask: int, target: int) -> IllegalAction:
    if mask.bit_count() != 1:
        return IllegalAction("one_cover", "cover one card at a time")
    if target not in s.att:
        return IllegalAction("not_on_table", f"{card_label(target)} is not on the table")
    if s.cov[s.att.index(target)] >= 0:
        return IllegalAction("covered", f"{card_label(target)} is already covered")
    card = mask.bit_length() - 1
    return IllegalAction(
        "does_not_beat",
        f"{card_label(card)} does not beat {card_label(target)}",
        cover=card_label(card),
        attack=card_label(target),
    )


def _why_bad_transfer(s: GameState, kind: int, mask: int) -> IllegalAction:
    if not s.rules.transfers:
        return IllegalAction("no_transfer", "podkidnoy has no transfer")
    if kind == SHOW and not s.rules.transfer_by_trump_show:
        return IllegalAction("no_show", "this table does not transfer by showing a trump")
    if s.stage == 2 and s.lead_size != 1:
        return IllegalAction("transfer_single_lead", "a transfer needs a bout that began with one card")
    if max(s.cov) >= 0:
        return IllegalAction("transfer_after_cover", "no transfer once a card is covered")
    if mask & ~RANK_GROUP[s.att[0]]:
        return IllegalAction("transfer_rank", "a transfer uses cards of the rank on the table")
    if kind == SHOW:
        if not mask & SUIT_MASK[s.trump]:
            return IllegalAction("show_trump", "show a trump of the attack rank")
        if mask & s.shown:
            return IllegalAction("shown_twice", "that trump was already shown this bout")
    nd = s._transfer_target()
    held = s.hands[nd].bit_count() if nd >= 0 else 0
    return IllegalAction(
        "transfer_limit",
        f"the next defender holds {_cards(held)}: too many attack cards for a transfer",
        cards=held,
    )


def _cards(k: int) -> str:
    return "1 card" if k == 1 else f"{k} cards"


def _ordinal(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh"}.get(
        k, f"{k}th"
    )
