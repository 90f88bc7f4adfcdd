"""Forms of pairing: a seek (the grid's cells post the same fields as the custom seek), a
challenge and the alert settings. Every impossible setup is a form error, never a 500."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine import Rules
from games.words import VARIANT_CHOICES
from pairing.models import Alerts
from pairing.setups import TURN_SECONDS, Setup, SetupError

DECK_CHOICES = ((24, _("24 cards")), (36, _("36 cards")), (52, _("52 cards")))


def _turn_label(seconds: int) -> str:
    return gettext("%(seconds)d s a move") % {"seconds": seconds}


#: Each label translated when drawn: formatting a lazy string at import fixed it in English.
TURN_CHOICES = [(s, lazy(_turn_label, str)(s)) for s in TURN_SECONDS]
RANGE_CHOICES = (("100", "± 100"), ("200", "± 200"), ("400", "± 400"), ("any", _("any rating")))


class SetupFields(forms.Form):
    """The options of a two-or-more-player table a seek or a challenge asks for."""

    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES, initial="podkidnoy")
    deck = forms.TypedChoiceField(label=_("Deck"), choices=DECK_CHOICES, coerce=int, initial=36)
    turn_seconds = forms.TypedChoiceField(label=_("Turn timer"), choices=TURN_CHOICES, coerce=int, initial=30)
    rated = forms.BooleanField(label=_("Rated"), required=False)

    players_fixed: int | None = 2

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        players = self.players_fixed or cleaned.get("players", 2)
        teams = bool(cleaned.get("teams"))
        variant = cleaned["variant"]
        # A variant without a choice of deck (circle) plays its own, as the engine says.
        chooses_deck = any(option.name == "deck" for option in Rules.options_for(variant))
        deck = cleaned["deck"] if chooses_deck else Rules.for_variant(variant).deck
        setup = Setup(variant, players, teams, deck, cleaned["turn_seconds"], cleaned["rated"])
        try:
            setup.rules()
        except SetupError:
            if setup.rated:
                raise forms.ValidationError(
                    _("A rated game plays the variant's own options: 36 cards (52 in the circle game)."),
                    code="rated",
                ) from None
            raise forms.ValidationError(
                _("%(players)d players need more cards than this deck has.") % {"players": players},
                code="deck",
            ) from None
        cleaned["setup"] = setup
        return cleaned

    @property
    def setup(self) -> Setup:
        setup: Setup = self.cleaned_data["setup"]
        return setup


class SeekForm(SetupFields):
    """Play now with any setup, and the rating range of a rated seek."""

    players_fixed = None
    players = forms.TypedChoiceField(
        label=_("Players"), choices=[(n, str(n)) for n in range(2, 7)], coerce=int, initial=2
    )
    teams = forms.BooleanField(label=_("2 vs 2 teams"), required=False)
    rating_range = forms.ChoiceField(label=_("Opponents' rating"), choices=RANGE_CHOICES, initial="200")

    def clean(self) -> dict[str, Any]:
        if self.data.get("teams") and str(self.data.get("players")) not in ("", "4"):
            raise forms.ValidationError(_("Teams play 2 against 2: the table needs exactly 4 players."))
        return super().clean()

    @property
    def rating_range_value(self) -> int | None:
        value = self.cleaned_data["rating_range"]
        return None if value == "any" else int(value)


class ChallengeForm(SetupFields):
    """A challenge: a game for two."""


class AlertsForm(forms.ModelForm[Alerts]):
    class Meta:
        model = Alerts
        fields = ("browser", "sound")
        labels = {
            "browser": _("A browser notification (your browser asks you once)"),
            "sound": _("A sound"),
        }
