"""Why an action is illegal, in a player's words.

Legality is decided by the variant's class (:meth:`~games.engine.data.GameData.allows`: the
legal actions, and the leads and throw-ins of several cards they do not list one by one). When
an action is refused, the refusals every variant shares come first (the game is over, no such
seat, no card named, a card not held, the redeal), then the variant's own
(:meth:`~games.engine.data.GameData.refusal`), each kept with its rule ("7♠ does not beat 9♠"
with the cover, "the defender holds 2 cards: no third attack card" with the limit). Every
sentence is declared in :mod:`.refusals`.
"""

from __future__ import annotations

from .actions import ATTACK, BEAT, COVER, REDEAL, SHOW, TRANSFER, FastAction
from .cards import card_label, cards_of
from .data import GameData
from .errors import IllegalAction
from .phases import OVER

_CARD_KINDS = (ATTACK, COVER, TRANSFER, SHOW, BEAT)
_FROM_HAND = (ATTACK, TRANSFER, SHOW, COVER)


def why_illegal(s: GameData, seat: int, fa: FastAction) -> IllegalAction | None:
    """Why ``seat`` may not play ``fa`` here, or None when it may."""
    kind, mask, _ = fa
    if s.phase == OVER:
        return IllegalAction.of("game_over")
    if not 0 <= seat < s.players:
        return IllegalAction.of("no_such_seat", seat=seat)
    if kind in _CARD_KINDS and not mask:
        return IllegalAction.of("no_cards")
    if s.allows(seat, fa):
        return None
    missing = mask & ~s.hands[seat]
    if kind in _FROM_HAND and missing:
        return IllegalAction.of("not_in_hand", cards=" ".join(card_label(c) for c in cards_of(missing)))
    if kind == REDEAL:
        if not s.rules.redeal:
            return IllegalAction.of("no_redeal_rule")
        return IllegalAction.of("no_redeal")
    return s.refusal(seat, fa)
