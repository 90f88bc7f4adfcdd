"""Forms of tournaments: setting one up (or editing it), adding bots, correcting a result.

The table options are the create-table form's own fields (``play.forms``), so a tournament's
tables are described and validated exactly like any table; this form adds the event around them
and turns everything into the service's settings. Every impossible combination comes back as a
form error with a message, never a 500.
"""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine import Rules, RulesError
from games.words import rules_message
from play.forms import TURN_SECONDS_CHOICES, TableCreateForm, bot_level_choices, variant_options
from play.services import RatedRulesError, validate_rated_rules
from tournaments.models import Tournament
from tournaments.services import SETTINGS_FIELDS

#: The create-table form's fields that describe a tournament's tables.
RULE_FIELDS = (
    "variant",
    "players",
    "deck",
    "throw_in",
    "first_bout_limit_5",
    "draws",
    "redeal",
    "transfer_by_trump_show",
    "jokers",
    "joker_beats",
    "throw_in_after_joker",
    "joker_last",
)

BEST_OF_CHOICES = ((1, _("One game")), (3, _("Best of 3")), (5, _("Best of 5")))
#: An arena's length, in minutes.
ARENA_MINUTES = (15, 30, 45, 60, 90, 120, 180)
MAX_FIELD = 128
MAX_ROUNDS = 15


def arena_minute_choices() -> list[tuple[int, str]]:
    """The arena lengths, in words of the active language."""
    return [(m, ngettext("%(count)d minute", "%(count)d minutes", m) % {"count": m}) for m in ARENA_MINUTES]


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%dT%H:%M")


class TournamentForm(forms.Form):
    """A tournament's settings; ``settings()`` gives them to ``tournaments.services``."""

    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices)
    third_place = forms.BooleanField(label=_("Play a match for third place"), required=False)
    legs = forms.TypedChoiceField(
        label=_("Round robin legs"),
        choices=((1, _("One: everyone meets once")), (2, _("Two: everyone meets twice"))),
        coerce=int,
        initial=1,
    )
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=0,
        max_value=MAX_ROUNDS,
        initial=0,
        help_text=_("Swiss and multi-table formats: how many rounds are played."),
    )
    final_table = forms.IntegerField(
        label=_("Final table"),
        min_value=0,
        max_value=6,
        initial=0,
        help_text=_("Multi-table: the top players who meet at a final table (0: no final)."),
    )
    best_of = forms.TypedChoiceField(
        label=_("Games per match"),
        choices=BEST_OF_CHOICES,
        coerce=int,
        initial=1,
        help_text=_("Two-player formats; a multi-table round is one game."),
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Turn timer"), choices=TURN_SECONDS_CHOICES, coerce=int, initial=30
    )
    min_players = forms.IntegerField(label=_("Minimum players"), min_value=2, max_value=MAX_FIELD, initial=4)
    max_players = forms.IntegerField(label=_("Maximum players"), min_value=2, max_value=MAX_FIELD, initial=16)
    # Entered and shown in the viewer's time zone (durak_site.middleware), which the help says.
    starts_at = forms.DateTimeField(label=_("Starts at"), widget=DateTimeLocalInput())
    registration_deadline = forms.DateTimeField(
        label=_("Registration deadline"),
        required=False,
        widget=DateTimeLocalInput(),
    )
    checkin_minutes = forms.IntegerField(
        label=_("Check-in window (minutes before the start)"),
        min_value=0,
        max_value=240,
        initial=0,
        help_text=_("0: no check-in. Otherwise players who have not checked in are dropped at the start."),
    )
    duration_minutes = forms.TypedChoiceField(
        label=_("Arena length"),
        choices=arena_minute_choices,
        coerce=int,
        empty_value=None,
        required=False,
        initial=60,
        help_text=_("Arena: players are paired again as soon as their game ends, for this long."),
    )
    berserk = forms.BooleanField(
        label=_("Berserk allowed"),
        required=False,
        help_text=_(
            "Arena: a player may halve their own turn timer in a game "
            "for a bonus point if they do not lose it."
        ),
    )
    rated = forms.BooleanField(label=_("Rated"), required=False)
    bots_allowed = forms.BooleanField(
        label=_("Bots allowed"),
        help_text=_(
            "The organiser may add the club's bots, and bot accounts of outside programs may register."
        ),
        required=False,
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        if tournament is not None and "initial" not in kwargs:
            kwargs["initial"] = initial_from(tournament)
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        for name in RULE_FIELDS:
            self.fields[name] = copy.deepcopy(TableCreateForm.base_fields[name])
        zone = timezone.get_current_timezone_name()
        self.fields["starts_at"].help_text = _("In your time zone, %(zone)s.") % {"zone": zone}
        self.fields["registration_deadline"].help_text = _(
            "In your time zone, %(zone)s. Empty: registration stays open until check-in or the start."
        ) % {"zone": zone}
        self.fields["players"].label = _("Players at a table")
        self.fields["players"].help_text = _(
            "Two for elimination, round robin and Swiss; three to six for multi-table; "
            "two to six for an arena."
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        fmt = cleaned["format"]
        multi = fmt == Tournament.Format.MULTI_TABLE
        arena = fmt == Tournament.Format.ARENA
        cleaned["duration_minutes"] = cleaned.get("duration_minutes") or 0
        players = cleaned["players"]
        if multi and players < 3:
            self.add_error("players", _("Multi-table rounds seat three to six players at a table."))
        if not (multi or arena) and players != 2:
            self.add_error("players", _("This format is played at tables of two."))
        if arena and cleaned["duration_minutes"] not in ARENA_MINUTES:
            self.add_error("duration_minutes", _("Choose how long the arena runs."))
        if not arena:
            cleaned["duration_minutes"], cleaned["berserk"] = 0, False
        if fmt in (Tournament.Format.SWISS, Tournament.Format.MULTI_TABLE) and cleaned["rounds"] < 1:
            self.add_error("rounds", _("Choose how many rounds are played."))
        if multi and cleaned["final_table"] not in range(2, players + 1) and cleaned["final_table"] != 0:
            self.add_error(
                "final_table", _("A final table seats from two players to a full table, or 0 for none.")
            )
        if cleaned["min_players"] > cleaned["max_players"]:
            self.add_error("max_players", _("The maximum cannot be below the minimum."))
        self._clean_times(cleaned)
        self._clean_rules(cleaned, players)
        if multi or arena:
            cleaned["best_of"] = 1
        if arena:
            cleaned["rounds"], cleaned["final_table"] = 0, 0
        if fmt != Tournament.Format.SINGLE:
            cleaned["third_place"] = False
        return cleaned

    def _clean_times(self, cleaned: dict[str, Any]) -> None:
        starts = cleaned["starts_at"]
        editing_started = self.tournament is not None and self.tournament.starts_at == starts
        if starts < timezone.now() - timedelta(minutes=1) and not editing_started:
            self.add_error("starts_at", _("The start must be in the future."))
        deadline = cleaned.get("registration_deadline")
        if deadline is not None and deadline > starts:
            self.add_error("registration_deadline", _("Registration must close before the start."))

    def _clean_rules(self, cleaned: dict[str, Any], players: int) -> None:
        variant = cleaned["variant"]
        overrides = {name: cleaned[name] for name in variant_options(variant) if name in cleaned}
        try:
            rules = Rules.for_variant(variant, players=players, **overrides)
        except RulesError as error:
            self.add_error(None, rules_message(error))
            return
        if cleaned["rated"]:
            try:
                validate_rated_rules(rules)
            except RatedRulesError as error:
                self.add_error("rated", error.message)
                return
        cleaned["rules"] = rules.to_dict()

    def settings(self) -> dict[str, Any]:
        """The valid form as the service's settings."""
        return {name: self.cleaned_data[name] for name in SETTINGS_FIELDS}


def initial_from(tournament: Tournament) -> dict[str, Any]:
    """The form's initial values for editing ``tournament``."""
    initial: dict[str, Any] = {name: getattr(tournament, name) for name in SETTINGS_FIELDS if name != "rules"}
    initial.update({name: tournament.rules.get(name) for name in RULE_FIELDS})
    return initial


class BotsForm(forms.Form):
    """Add bots of one level to the field."""

    level = forms.ChoiceField(label=_("Bot level"), choices=bot_level_choices, initial="easy")
    count = forms.IntegerField(label=_("How many"), min_value=1, max_value=MAX_FIELD, initial=1)


class CorrectionForm(forms.Form):
    """Correct a two-player result, with the reason that goes in the log."""

    score = forms.TypedChoiceField(
        label=_("Result"),
        choices=(
            ("1", _("First player won")),
            ("0.5", _("Draw")),
            ("0", _("Second player won")),
        ),
        coerce=float,
    )
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
