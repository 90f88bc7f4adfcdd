"""The engine's errors: an illegal action explains itself.

``IllegalAction`` carries a stable ``code`` (the site translates by it), ``params`` (card
labels, counts) and the English sentence a player reads. The engine raises the refusals
declared in :mod:`.refusals` (:meth:`IllegalAction.of`); :attr:`IllegalAction.refusal` hands
the site the declared template to translate.

>>> e = IllegalAction.of("does_not_beat", cover="7♠", attack="9♠")
>>> str(e), e.code, e.params["attack"], e.refusal.template
('7♠ does not beat 9♠', 'does_not_beat', '9♠', '%(cover)s does not beat %(attack)s')
"""

from __future__ import annotations

from .refusals import REFUSALS, Refusal


class IllegalAction(ValueError):
    """An action the rules do not allow here; ``str(err)`` says why in a player's words."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, object] = params

    @classmethod
    def of(cls, code: str, **params: object) -> IllegalAction:
        """The declared refusal ``code`` with ``params`` (``KeyError`` for an undeclared code)."""
        return cls(code, REFUSALS[code].render(params), **params)

    @property
    def refusal(self) -> Refusal | None:
        """The declared refusal of this code (None for a code the engine does not declare)."""
        return REFUSALS.get(self.code)


class NotationError(ValueError):
    """Text that is not an action in the canonical notation."""
