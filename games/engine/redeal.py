"""The redeal (``docs/rules.md`` §1 "Redeal", table option ``redeal``).

Until the game's first card is laid, any seat holding five or six cards of one suit may show
them and demand a new deal. The whole deck is dealt again from the next seed of the game's
sequence (``f"{seed}/redeal{n}"``), the dealer stays, and the first attacker is found afresh.
"""

from __future__ import annotations

from .cards import SUIT_MASK, cards_of
from .data import GameData
from .deal import deal_seeded, start_play
from .errors import IllegalAction
from .events import Event
from .phases import LEAD


def redeal_seats(s: GameData) -> list[int]:
    """Seats that may claim a redeal now: five or more cards of a suit, no card laid yet."""
    if not s.rules.redeal or s.opened or s.phase != LEAD:
        return []
    return [seat for seat, h in enumerate(s.hands) if _long_suit(h)]


def _long_suit(hand: int) -> int:
    """The cards of the first suit ``hand`` holds five or more of (0: none)."""
    for m in SUIT_MASK:
        if (hand & m).bit_count() >= 5:
            return hand & m
    return 0


def redeal(s: GameData, seat: int, ev: list[Event] | None) -> None:
    """``seat`` shows its long suit; the deck is dealt again."""
    shown = _long_suit(s.hands[seat])
    if not shown:
        raise IllegalAction.of("no_redeal")
    s.redeals += 1
    if ev is not None:
        ev.append(Event("redeal", seat, tuple(cards_of(shown))))
    s.discard = 0
    s.bito_done = False
    deal_seeded(s, f"{s.seed}/redeal{s.redeals}")
    start_play(s)
