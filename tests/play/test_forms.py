"""The new-table form: every table option of ``docs/rules.md`` valid for its variant, rated or
casual, the turn timer, public or private; impossible tables are form errors with a reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.engine import Rules
from play.forms import ActionForm, BotFillForm, TableCreateForm, describe_rules

pytestmark = pytest.mark.django_db

BASE: dict[str, Any] = {
    "variant": "podkidnoy",
    "players": "2",
    "deck": "36",
    "throw_in": "all",
    "first_bout_limit_5": "on",
    "draws": "on",
    "jokers": "0",
    "joker_beats": "any",
    "throw_in_after_joker": "on",
    "joker_last": "defence_only",
    "turn_seconds": "30",
}


def form(**changes: Any) -> TableCreateForm:
    data = {**BASE, **changes}
    return TableCreateForm({k: v for k, v in data.items() if v is not None})


def test_the_defaults_make_the_engines_default_table() -> None:
    f = form()
    assert f.is_valid(), f.errors
    assert f.rules == Rules()
    assert f.cleaned_data["turn_seconds"] == 30
    assert not f.cleaned_data["rated"] and not f.cleaned_data["private"]


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"deck": "24"}, Rules(deck=24)),
        ({"deck": "52", "players": "6"}, Rules(deck=52, players=6)),
        ({"throw_in": "neighbours", "players": "3"}, Rules(players=3, throw_in="neighbours")),
        ({"first_bout_limit_5": None}, Rules(first_bout_limit_5=False)),
        ({"draws": None}, Rules(draws=False)),
        ({"redeal": "on"}, Rules(redeal=True)),
        ({"players": "4", "teams": "on"}, Rules(players=4, teams=True)),
        (
            {"variant": "perevodnoy", "transfer_by_trump_show": "on"},
            Rules.for_variant("perevodnoy", transfer_by_trump_show=True),
        ),
        (
            {
                "variant": "circle",
                "players": "4",
                "jokers": "2",
                "joker_beats": "colour",
                "throw_in_after_joker": None,
                "joker_last": "pass_on",
            },
            Rules.for_variant(
                "circle",
                players=4,
                jokers=2,
                joker_beats="colour",
                throw_in_after_joker=False,
                joker_last="pass_on",
            ),
        ),
    ],
)
def test_every_table_option_reaches_the_rules(changes: dict[str, Any], expected: Rules) -> None:
    f = form(**changes)
    assert f.is_valid(), f.errors
    assert f.rules == expected


def test_options_of_another_variant_are_ignored_not_refused() -> None:
    """The page hides them; a stale hidden value must not block the host."""
    f = form(variant="podkidnoy", jokers="2", transfer_by_trump_show="on")
    assert f.is_valid(), f.errors
    assert f.rules.jokers == 0 and not f.rules.transfer_by_trump_show
    circle = form(variant="circle", deck="24", redeal="on")
    assert circle.is_valid(), circle.errors
    assert circle.rules.deck == 52 and not circle.rules.redeal


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": "6", "deck": "24"}, "cannot deal six to each"),
        ({"players": "3", "teams": "on"}, "exactly 4 players"),
        ({"players": "7"}, "Select a valid choice"),
        ({"deck": "40"}, "Select a valid choice"),
        ({"turn_seconds": "5"}, "Select a valid choice"),
        ({"variant": "chess"}, "Select a valid choice"),
    ],
)
def test_impossible_tables_are_form_errors(changes: dict[str, Any], message: str) -> None:
    f = form(**changes)
    assert not f.is_valid()
    assert message in str(f.errors)


def test_a_rated_table_keeps_the_standard_options() -> None:
    assert form(rated="on", players="4").is_valid()
    assert form(rated="on", players="4", teams="on").is_valid()
    refused = form(rated="on", redeal="on")
    assert not refused.is_valid()
    assert "rated table" in str(refused.errors)
    assert form(redeal="on").is_valid()  # the same options casual are fine


@pytest.mark.parametrize("seconds", ["15", "30", "60"])
def test_the_turn_timers(seconds: str) -> None:
    f = form(turn_seconds=seconds)
    assert f.is_valid() and f.cleaned_data["turn_seconds"] == int(seconds)


def test_bot_levels_are_the_engines() -> None:
    assert BotFillForm({"level": "random"}).is_valid()
    assert BotFillForm({"level": "easy"}).is_valid()
    assert not BotFillForm({"level": "grandmaster"}).is_valid()


def test_the_action_form_needs_an_action_and_a_version() -> None:
    assert ActionForm({"action": "take", "version": "3"}).is_valid()
    assert not ActionForm({"action": "take"}).is_valid()
    assert not ActionForm({"action": "take", "version": "-1"}).is_valid()


def test_the_rules_in_words_leave_out_other_variants_options() -> None:
    lines = describe_rules(Rules.for_variant("podkidnoy", players=4, teams=True).to_dict())
    text = " ".join(lines)
    assert "Players: 4" in text and "teams" in text
    assert "Jokers" not in text
    circle = " ".join(describe_rules(Rules.for_variant("circle", players=3, jokers=2).to_dict()))
    assert "Jokers: Two" in circle and "Deck" not in circle


@pytest.mark.parametrize(
    ("changes", "russian"),
    [
        ({"players": "3", "teams": "on"}, "команды играют 2 на 2: за столом должно быть ровно 4 игрока"),
        ({"players": "6", "deck": "24"}, "для 6 игроков нужно карт: 36, колоды из 24 карт не хватит"),
    ],
)
def test_an_impossible_table_is_said_in_the_engines_sentence_for_its_code(
    changes: dict[str, Any], russian: str
) -> None:
    """The form translates the sentence the engine declares for the ``RulesError``'s code, with
    its params, instead of re-deriving the engine's checks (``games.words.rules_message``)."""
    with translation.override("ru"):
        f = form(**changes)
        assert not f.is_valid()
        assert str(f.errors["__all__"][0]).startswith(f"Такой стол невозможен: {russian}")
