"""The history page's filter form (GET): turns query parameters into ``HistoryFilters``."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.results import DRAW, FOOL, OUT, WON
from games.words import VARIANT_CHOICES, pool_choices
from history.selectors import HistoryFilters

OUTCOME_CHOICES = (
    ("", _("any result")),
    (WON, _("won")),
    (OUT, _("out")),
    (FOOL, _("fool")),
    (DRAW, _("draw")),
)
RATED_CHOICES = (("", _("rated and casual")), ("1", _("rated")), ("0", _("casual")))


class HistoryFilterForm(forms.Form):
    """Every field optional; an invalid value is dropped rather than refused (it is a GET)."""

    variant = forms.ChoiceField(label=_("Variant"), required=False)
    pool = forms.ChoiceField(label=_("Table"), required=False)
    rated = forms.ChoiceField(label=_("Rated"), required=False, choices=RATED_CHOICES)
    outcome = forms.ChoiceField(label=_("Result"), required=False, choices=OUTCOME_CHOICES)
    opponent = forms.TypedChoiceField(label=_("Opponent"), required=False, coerce=int, empty_value=None)
    tournament = forms.TypedChoiceField(label=_("Tournament"), required=False, coerce=int, empty_value=None)
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, data: Any, *, opponents: list[User], tournaments: list[tuple[int, str]]) -> None:
        super().__init__(data)
        variant, pool, opponent, tournament = (
            cast(forms.ChoiceField, self.fields[name])
            for name in ("variant", "pool", "opponent", "tournament")
        )
        variant.choices = [("", _("any variant")), *VARIANT_CHOICES]
        pool.choices = [("", _("any table")), *pool_choices()]
        opponent.choices = [("", _("anyone"))] + [(u.pk, u.public_name) for u in opponents]
        tournament.choices = [("", _("any game")), *tournaments]

    def filters(self) -> HistoryFilters:
        """The valid fields as filters (call after ``is_valid()``)."""
        data = (
            self.cleaned_data
            if self.is_valid()
            else {
                name: value
                for name, value in getattr(self, "cleaned_data", {}).items()
                if name not in self.errors
            }
        )
        rated = data.get("rated")
        return HistoryFilters(
            variant=data.get("variant") or None,
            pool=data.get("pool") or None,
            rated=None if not rated else rated == "1",
            outcome=data.get("outcome") or None,
            opponent=data.get("opponent") or None,
            tournament=data.get("tournament") or None,
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
        )
