"""Forms of live play: creating a table and filling its seats with bots.

The create-table form turns a host's choices into the engine's :class:`Rules`, so one place
decides which option belongs to which variant and every impossible table comes back as a form
error (never a 500), in the sentence the engine declares for the error's code
(``games.words.rules_message``). Options that do not apply to the chosen variant are ignored
rather than refused: the page hides them, and a stale hidden value must not block the host.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.bots import LEVELS
from games.engine import Rules, RulesError
from games.engine.rules import VARIANTS
from games.words import VARIANT_CHOICES, rules_message
from play.services import RatedRulesError, validate_rated_rules

TURN_SECONDS_CHOICES = ((15, _("15 seconds")), (30, _("30 seconds")), (60, _("60 seconds")))
DEFAULT_TURN_SECONDS = 30
DEFAULT_THROW_IN_SECONDS = 5
THROW_IN_SECONDS_CHOICES = ((3, _("3 seconds")), (5, _("5 seconds")), (10, _("10 seconds")))

#: The options the form has a field for outside the variant's own (players and teams lead it).
SEATING = frozenset({"players", "teams"})


def variant_options(variant: str) -> frozenset[str]:
    """The table options a ``variant`` reads (the engine says which: ``Rules.options_for``); the
    others keep the variant's default, and the page hides their fields."""
    return frozenset(option.name for option in Rules.options_for(variant)) - SEATING


def option_variants(name: str) -> str:
    """The variants that read option ``name``, space-separated (the fields' ``data-variants``)."""
    return " ".join(variant for variant in VARIANTS if name in variant_options(variant))


def bot_level_choices() -> list[tuple[str, str]]:
    """The levels the bots offer now, labelled with the account model's translated names."""
    labels = dict(User.BotLevel.choices)
    return [(level, str(labels.get(level, level)).capitalize()) for level in LEVELS]


class TableCreateForm(forms.Form):
    """A new table: the rules, rated or casual, the turn timer, public or private."""

    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES, initial="podkidnoy")
    players = forms.TypedChoiceField(
        label=_("Players"), choices=[(n, str(n)) for n in range(2, 7)], coerce=int, initial=2
    )
    teams = forms.BooleanField(label=_("2 vs 2 teams (partners sit opposite)"), required=False, initial=False)
    deck = forms.TypedChoiceField(
        label=_("Deck"),
        choices=(
            (24, _("24 cards (9 to ace)")),
            (36, _("36 cards (6 to ace)")),
            (52, _("52 cards (2 to ace)")),
        ),
        coerce=int,
        initial=36,
    )
    throw_in = forms.ChoiceField(
        label=_("Who may throw in"),
        choices=(("all", _("Everyone")), ("neighbours", _("Only the defender's neighbours"))),
        initial="all",
    )
    first_bout_limit_5 = forms.BooleanField(
        label=_("At most 5 cards until the first bito"), required=False, initial=True
    )
    draws = forms.BooleanField(label=_("A game may end in a draw"), required=False, initial=True)
    redeal = forms.BooleanField(label=_("Redeal on five cards of one suit"), required=False, initial=False)
    transfer_by_trump_show = forms.BooleanField(
        label=_("Transfer by showing a trump"), required=False, initial=False
    )
    jokers = forms.TypedChoiceField(
        label=_("Jokers"), choices=((0, _("None")), (2, _("Two"))), coerce=int, initial=0
    )
    joker_beats = forms.ChoiceField(
        label=_("A joker beats"),
        choices=(("any", _("Any card")), ("colour", _("Cards of its colour"))),
        initial="any",
    )
    throw_in_after_joker = forms.BooleanField(
        label=_("Throw-ins continue after a joker"), required=False, initial=True
    )
    joker_last = forms.ChoiceField(
        label=_("Holding only jokers"),
        choices=(("defence_only", _("Only defend")), ("pass_on", _("Lead a joker to pass it on"))),
        initial="defence_only",
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=False)
    turn_seconds = forms.TypedChoiceField(
        label=_("Turn timer"),
        choices=TURN_SECONDS_CHOICES,
        coerce=int,
        initial=DEFAULT_TURN_SECONDS,
    )
    throw_in_seconds = forms.TypedChoiceField(
        label=_("Throw-in window"),
        help_text=_("How long the bout waits for throw-ins once every card is covered or taken."),
        choices=THROW_IN_SECONDS_CHOICES,
        coerce=int,
        initial=DEFAULT_THROW_IN_SECONDS,
        required=False,
    )
    private = forms.BooleanField(
        label=_("Private (only with the invite link)"), required=False, initial=False
    )
    watch = forms.BooleanField(
        label=_("I only watch: bots take every seat (casual tables)"),
        required=False,
        initial=False,
    )

    def clean_throw_in_seconds(self) -> int:
        """A form posted without the window (a page drawn before it existed) gets the default."""
        value = self.cleaned_data.get("throw_in_seconds")
        return DEFAULT_THROW_IN_SECONDS if value in (None, "") else int(value)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        variant = cleaned.get("variant")
        players = cleaned.get("players")
        if variant is None or players is None or self.errors:
            return cleaned
        overrides = {name: cleaned[name] for name in variant_options(variant) if name in cleaned}
        if cleaned.get("teams"):
            overrides["teams"] = True
        try:
            rules = Rules.for_variant(variant, players=players, **overrides)
        except RulesError as error:
            raise forms.ValidationError(rules_message(error), code="rules") from None
        if cleaned.get("rated") and cleaned.get("watch"):
            raise forms.ValidationError(_("The creator of a rated table sits at it."), code="rated_watch")
        if cleaned.get("rated"):
            try:
                validate_rated_rules(rules)
            except RatedRulesError as error:
                raise forms.ValidationError(error.message, code="rated_options") from None
        cleaned["rules"] = rules
        return cleaned

    @property
    def variants(self) -> dict[str, str]:
        """Option name -> the variants that read it (the page shows a field for those only)."""
        return {name: option_variants(name) for name in self.fields if name not in SEATING}

    @property
    def rules(self) -> Rules:
        """The engine rules of a valid form."""
        rules: Rules = self.cleaned_data["rules"]
        return rules


class BotFillForm(forms.Form):
    """Which level of bot takes the empty seats."""

    level = forms.ChoiceField(label=_("Bot level"), choices=bot_level_choices, initial="easy")


class ActionForm(forms.Form):
    """The POST fallback of a move: the action's notation and the version it was chosen at."""

    action = forms.CharField(max_length=200)
    version = forms.IntegerField(min_value=0)


def describe_rules(rules: dict[str, Any]) -> list[str]:
    """A table's options (``Rules.to_dict()``) in words, with this form's labels; options the
    variant does not read are left out."""
    fields = TableCreateForm.base_fields
    variant = str(rules.get("variant"))
    own = (variant_options(variant) if variant in VARIANTS else frozenset()) | {"variant", "players"}
    lines = []
    for name in ("variant", "players", "deck", "throw_in", "jokers", "joker_beats", "joker_last"):
        field = fields[name]
        labels = {str(key): str(label) for key, label in getattr(field, "choices", ())}
        value = str(rules.get(name))
        if name not in own or (name.startswith("joker_") and not rules.get("jokers")):
            continue
        if value in labels:
            lines.append(f"{field.label}: {labels[value]}")
    for name in ("teams", "first_bout_limit_5", "draws", "redeal", "transfer_by_trump_show"):
        if rules.get(name) and (name == "teams" or name in own):
            lines.append(str(fields[name].label))
    return lines


class BotGameForm(forms.Form):
    """A game against bots in one click: the variant, the number of players and the bots' level,
    each with a default (the rest of the table is the variant's standard options)."""

    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES, initial="podkidnoy")
    players = forms.TypedChoiceField(
        label=_("Players"), choices=[(n, str(n)) for n in range(2, 7)], coerce=int, initial=2
    )
    level = forms.ChoiceField(label=_("Bot level"), choices=bot_level_choices, initial="easy")

    @classmethod
    def with_defaults(cls, data: Mapping[str, str]) -> Self:
        """The form of a post, any choice left out taking its default (a bare "play" button)."""
        defaults = {name: str(field.initial) for name, field in cls.base_fields.items()}
        return cls({**defaults, **{name: data[name] for name in defaults if name in data}})

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        variant = cleaned["variant"]
        options = {name: cleaned[name] for name in variant_options(variant) if name in self.fields}
        try:
            cleaned["rules"] = Rules.for_variant(variant, players=cleaned["players"], **options)
        except RulesError as error:
            raise forms.ValidationError(rules_message(error), code="rules") from None
        return cleaned


class BotGamePost(BotGameForm):
    """What the "play bots now" door reads: the form's three choices and any table option the
    variant reads, each left out taking the variant's standard value. The lobby's form posts none
    of them (so it shows three fields); a lesson's practice game posts the options it taught."""

    # The create-table form's own fields, so both read an option the same way.
    deck = TableCreateForm.base_fields["deck"]
    throw_in = TableCreateForm.base_fields["throw_in"]
    first_bout_limit_5 = TableCreateForm.base_fields["first_bout_limit_5"]
    draws = TableCreateForm.base_fields["draws"]
    redeal = TableCreateForm.base_fields["redeal"]
    transfer_by_trump_show = TableCreateForm.base_fields["transfer_by_trump_show"]
    jokers = TableCreateForm.base_fields["jokers"]
    joker_beats = TableCreateForm.base_fields["joker_beats"]
    throw_in_after_joker = TableCreateForm.base_fields["throw_in_after_joker"]
    joker_last = TableCreateForm.base_fields["joker_last"]
