"""The answer to a step as the board posts it: the button pressed (``kind``), the cards chosen from
the hand and the card on the table (or in the circle) chosen as the target.

Any combination is turned into an action, legal or not, so that the engine, not the form, says
what is wrong with a move; the form refuses only what is no move at all (an unknown card, a cover
without its target), each with a sentence that says what to choose.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import Action, card_from_str

#: The buttons of the board and the action each one makes.
KINDS = ("attack", "cover", "transfer", "show", "take", "pass", "beat")


class AnswerForm(forms.Form):
    kind = forms.ChoiceField(choices=[(kind, kind) for kind in KINDS])
    cards = forms.MultipleChoiceField(required=False, choices=())
    target = forms.CharField(required=False, max_length=4)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # Any card code may be named (the engine says "you do not hold ..."); unknown ones are
        # refused in clean_cards with a sentence.
        self.fields["cards"].valid_value = lambda value: True  # type: ignore[attr-defined]

    def clean_cards(self) -> tuple[int, ...]:
        try:
            return tuple(sorted({card_from_str(code) for code in self.cleaned_data["cards"]}))
        except ValueError:
            raise forms.ValidationError(_("That is not a card of this game."), code="card") from None

    def clean_target(self) -> int | None:
        code = self.cleaned_data["target"].strip()
        if not code:
            return None
        try:
            return card_from_str(code)
        except ValueError:
            raise forms.ValidationError(_("That is not a card of this game."), code="card") from None

    def action(self) -> Action:
        """The action the choices make (call once the form is valid)."""
        kind: str = self.cleaned_data["kind"]
        cards: tuple[int, ...] = self.cleaned_data["cards"]
        target: int | None = self.cleaned_data["target"]
        if kind in ("take", "pass"):
            return Action(kind)
        return Action(kind, cards, target if kind in ("cover", "beat") else None)

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        kind, cards, target = cleaned["kind"], cleaned["cards"], cleaned["target"]
        if kind in ("cover", "beat") and (len(cards) != 1 or target is None):
            raise forms.ValidationError(
                _("Choose one card of your hand and the card it should beat."), code="cover"
            )
        if kind == "show" and len(cards) != 1:
            raise forms.ValidationError(_("Choose the one trump to show."), code="show")
        if kind in ("attack", "transfer") and not cards:
            raise forms.ValidationError(_("Choose a card of your hand first."), code="cards")
        return cleaned
