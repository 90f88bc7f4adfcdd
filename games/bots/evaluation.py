"""A static evaluation of a two-player game at the first lead after the stock has run out.

The strong search's playouts stop there (:func:`games.bots.ismcts.playout`): from that lead the
heuristic's playout is a single noisy sample of an endgame that the exact solver
(:mod:`games.bots.endgame`) takes over once the bot really gets there, while this evaluation is
the expected result of such playouts, read off the two hands at once. It is a logistic model,
linear in what each hand holds: every card counts against its holder (a card is one more to
shed), trumps and high plain ranks count for, low plain cards against, and leading is worth
something. ``python -m tools.fit_evaluation`` refits the weights from seeded playouts of the
search's own policy and prints them with their held-out log loss (0.50 against 0.69 for a coin).
"""

from __future__ import annotations

import math

from games.engine.cards import ALL_CARDS, RED_JOKER
from games.engine.state import GameState

#: The fitted weights (``tools.fit_evaluation``): per card held, per trump, per trump rank above
#: five, per plain king or ace, per plain rank above nine, per plain card of rank eight or below,
#: and for the seat that leads.
PER_CARD = -0.866
PER_TRUMP = 0.593
PER_TRUMP_RANK = 0.03
PER_HIGH_PLAIN = -0.035
PER_PLAIN_RANK = 0.096
PER_LOW_PLAIN = -0.138
LEADING = 0.444


def card_weight(card: int, trump: int) -> float:
    """What holding ``card`` adds to its holder's score (the cards of a two-player game; the
    jokers of ``circle`` never reach here)."""
    if card >= RED_JOKER:
        return 0.0
    rank = (card >> 2) + 2
    if card & 3 == trump:
        return PER_CARD + PER_TRUMP + PER_TRUMP_RANK * (rank - 5)
    return (
        PER_CARD
        + PER_HIGH_PLAIN * (rank >= 13)
        + PER_PLAIN_RANK * max(0, rank - 9)
        + PER_LOW_PLAIN * (rank <= 8)
    )


#: WEIGHTS[trump][card] = card_weight(card, trump), for the playouts' hot path.
WEIGHTS: tuple[tuple[float, ...], ...] = tuple(
    tuple(card_weight(c, t) for c in range(ALL_CARDS)) for t in range(4)
)


def hand_score(hand: int, weights: tuple[float, ...]) -> float:
    """The sum of the weights of the cards in the bitmask ``hand``."""
    total = 0.0
    while hand:
        low = hand & -hand
        total += weights[low.bit_length() - 1]
        hand ^= low
    return total


def stock_out_values(s: GameState) -> list[float]:
    """Each seat's expected value (1 not the fool, 0 the fool) of the two-player game ``s``,
    waiting for its attacker to lead with the stock empty."""
    weights = WEIGHTS[s.trump_suit]
    z = hand_score(s.hands[0], weights) - hand_score(s.hands[1], weights)
    z += LEADING if s.attacker == 0 else -LEADING
    first = 1 / (1 + math.exp(-z))
    return [first, 1 - first]
