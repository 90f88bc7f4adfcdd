"""The board editor's form: the rules chosen, then each zone's cards typed or clicked in."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.words import variant_name

from .board import SEATS, BoardRefused, editor_position

VARIANTS = ("podkidnoy", "perevodnoy", "circle")


class EditorForm(forms.Form):
    variant = forms.ChoiceField(label=_("Variant"), choices=[(v, v) for v in VARIANTS])
    deck = forms.TypedChoiceField(
        label=_("Deck"), coerce=int, choices=[(24, "24"), (36, "36"), (52, "52")], initial=36
    )
    jokers = forms.TypedChoiceField(label=_("Jokers"), coerce=int, choices=[(0, "0"), (2, "2")], initial=0)
    trump = forms.CharField(label=_("Trump card"), max_length=4, initial="6D")
    stock = forms.CharField(label=_("Stock, top card first"), max_length=400, required=False)
    discard = forms.CharField(label=_("Discard"), max_length=400, required=False)
    table = forms.CharField(label=_("Attack cards on the table"), max_length=100, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [(v, variant_name(v)) for v in VARIANTS]  # type: ignore[attr-defined]
        for seat in range(SEATS):
            self.fields[f"hand{seat}"] = forms.CharField(
                label=_("Seat %(seat)s's hand") % {"seat": seat}, max_length=200, required=False
            )
        self.position = ""

    def hand_fields(self) -> list[forms.BoundField]:
        return [self[f"hand{seat}"] for seat in range(SEATS)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            self.position = editor_position(
                variant=data["variant"],
                deck=data["deck"],
                jokers=data["jokers"],
                hands=[data.get(f"hand{seat}", "") for seat in range(SEATS)],
                trump=data["trump"],
                stock=data.get("stock", ""),
                discard=data.get("discard", ""),
                table=data.get("table", ""),
            )
        except BoardRefused as refused:
            raise forms.ValidationError(refused.message) from None
        return data
