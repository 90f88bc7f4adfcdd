"""The engine's errors: an illegal action explains itself.

``IllegalAction`` carries a stable ``code`` (the site translates by it) and ``params``
(card labels, counts) next to the English sentence a player reads.

>>> e = IllegalAction("does_not_beat", "7♠ does not beat 9♠", cover="7♠", attack="9♠")
>>> str(e), e.code, e.params["attack"]
('7♠ does not beat 9♠', 'does_not_beat', '9♠')
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow here; ``str(err)`` says why in a player's words."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, object] = params


class NotationError(ValueError):
    """Text that is not an action in the canonical notation."""
