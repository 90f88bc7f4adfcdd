"""Display names nobody can mistake for another: whitespace folded, invisible characters refused,
look-alikes (homoglyphs, compatibility forms) refused by a unique skeleton, bot names reserved."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db import IntegrityError, connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.names import capitals_skeleton, skeleton

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def signup(client: Client, email: str, name: str) -> Any:
    return client.post(
        reverse("account_signup"),
        {"email": email, "display_name": name, "password1": PASSWORD, "password2": PASSWORD},
    )


def refused(response: Any, email: str) -> bool:
    return response.status_code == 200 and not User.objects.filter(email=email).exists()


@pytest.fixture
def olga(db: None) -> User:
    return User.objects.create_user(username="olga", email="olga@example.com", display_name="Olga Petrova")


# --- whitespace -------------------------------------------------------------------------------


def test_doubled_and_odd_spaces_are_folded_into_one(client: Client) -> None:
    signup(client, "ivan@example.com", "  Ivan \u00a0\u2003 Petrov ")
    assert User.objects.get(email="ivan@example.com").display_name == "Ivan Petrov"


def test_a_name_that_differs_only_by_spaces_is_taken(client: Client, olga: User) -> None:
    response = signup(client, "twin@example.com", "Olga   Petrova")
    assert refused(response, "twin@example.com")
    assert "already taken" in response.content.decode()


# --- invisible characters ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Ol\u200bga",  # ZERO WIDTH SPACE (Cf)
        "Ol\u200dga",  # ZERO WIDTH JOINER (Cf)
        "Olga\u202e",  # RIGHT-TO-LEFT OVERRIDE (Cf)
        "Ol\u00adga",  # SOFT HYPHEN (Cf)
        "Ol\ufeffga",  # ZERO WIDTH NO-BREAK SPACE (Cf)
        "Ol\u0007ga",  # BELL (Cc)
        "Ol\u2028ga",  # LINE SEPARATOR (Zl)
        "Ol\u2029ga",  # PARAGRAPH SEPARATOR (Zp)
        "Ol\u3164ga",  # HANGUL FILLER (a letter that draws nothing)
        "Ol\u115fga",  # HANGUL CHOSEONG FILLER
        "Ol\u2800ga",  # BRAILLE PATTERN BLANK
        "Olg\ufe0fa",  # VARIATION SELECTOR-16
        "Ol\u034fga",  # COMBINING GRAPHEME JOINER
        "\u3164\u3164",  # a name of nothing at all
    ],
)
def test_invisible_and_format_characters_are_refused(client: Client, name: str) -> None:
    assert refused(signup(client, "ghost@example.com", name), "ghost@example.com")


def test_the_refusal_names_the_invisible_character(client: Client) -> None:
    response = signup(client, "ghost@example.com", "Ol\u200bga")
    assert "U+200B" in response.content.decode()


# --- look-alikes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Оlga Petrova",  # Cyrillic О
        "Olga Pеtrоva",  # Cyrillic е and о
        "0lga Petrova",  # zero for O
        "OIga Petrova",  # capital I for l
        "Olga Petrova".upper(),  # case: already the same name
        "𝐎𝐥𝐠𝐚 Petrova",  # mathematical bold
        "Ｏｌｇａ Petrova",  # fullwidth
    ],
)
def test_a_name_that_looks_like_a_taken_one_is_refused(client: Client, olga: User, name: str) -> None:
    assert refused(signup(client, "twin@example.com", name), "twin@example.com")


@pytest.mark.parametrize(
    "name",
    [
        "olga petrоva",  # another case and a Cyrillic о: looks just like "olga petrova"
        "OLGA PETRОVA",  # capitals with a Cyrillic О
        "ОLGA PETROVA",  # capitals with a Cyrillic О first
    ],
)
def test_a_look_alike_of_the_name_in_another_case_is_refused(client: Client, olga: User, name: str) -> None:
    """Neither the case-blind comparison (another letter) nor the skeleton (which keeps some
    case) caught these; the skeleton in capitals, which every case of a name shares, does."""
    response = signup(client, "twin@example.com", name)
    assert refused(response, "twin@example.com")
    assert "looks too much like one already taken" in response.content.decode()


def test_the_skeleton_in_capitals_is_kept_with_the_name(olga: User) -> None:
    assert olga.display_name_capitals_key == capitals_skeleton("OLGA PETROVA")
    olga.display_name = "Olga Ivanova"
    olga.save(update_fields=["display_name"])
    olga.refresh_from_db()
    assert olga.display_name_capitals_key == capitals_skeleton("olga ivanova")


def test_the_look_alike_refusal_says_why(client: Client, olga: User) -> None:
    response = signup(client, "twin@example.com", "Оlga Petrova")
    assert "looks too much like one already taken" in response.content.decode()


def test_a_different_name_still_passes(client: Client, olga: User) -> None:
    signup(client, "oleg@example.com", "Oleg Petrov")
    assert User.objects.filter(email="oleg@example.com", display_name="Oleg Petrov").exists()


def test_the_database_refuses_two_look_alikes_whatever_the_path(olga: User) -> None:
    """The skeleton's unique index: two concurrent signups cannot both get a look-alike in."""
    with pytest.raises(IntegrityError):
        User.objects.create_user(username="twin", display_name="Оlga Petrova")


def test_the_database_refuses_a_look_alike_in_another_case_whatever_the_path(olga: User) -> None:
    """The skeleton in capitals' unique index: a name that changes case and a letter at once
    differs from "Olga Petrova" by skeleton, yet cannot get in beside it by two signups at once."""
    assert skeleton("olga petr\u043eva") != olga.display_name_key
    with pytest.raises(IntegrityError):
        User.objects.create_user(username="twin", display_name="olga petr\u043eva")


@pytest.mark.parametrize(
    ("name", "username"),
    [
        ("olga petr\u043eva", "olga-twin"),  # a look-alike in another case, taken between check and save
        ("Oleg Petrov", "olga"),  # a free name, but the username made meanwhile by someone else
    ],
)
def test_a_signup_that_loses_a_race_at_the_database_is_told_and_creates_nothing(
    client: Client, olga: User, name: str, username: str
) -> None:
    """The form's checks passed (as for two signups sent at the same instant), the unique indexes
    refuse the save: the person is back at the form with a message, not at an error page."""
    with (
        mock.patch("accounts.forms.display_name_is_lookalike", return_value=False),
        mock.patch("accounts.forms.display_name_is_taken", return_value=False),
        mock.patch("accounts.adapter.AccountAdapter.generate_unique_username", return_value=username),
    ):
        response = signup(client, "late@example.com", name)
    assert response.status_code == 302 and response.url == reverse("account_signup")
    assert not User.objects.filter(email="late@example.com").exists()
    page = client.get(response.url).content.decode()
    if username == "olga":
        assert "could not be created just now" in page
    else:
        assert "was taken a moment ago" in page


def test_the_skeleton_is_kept_with_the_name(olga: User) -> None:
    assert olga.display_name_key == skeleton("Olga Petrova")
    olga.display_name = "Olga Ivanova"
    olga.save(update_fields=["display_name"])
    olga.refresh_from_db()
    assert olga.display_name_key == skeleton("Olga Ivanova")


# --- bot names --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Bot Easy",
        "Bot Easy 2",
        "bot easy 2",
        "BOT  EASY 3",
        "Bot-Easy-4",
        "BotEasy5",
        "Воt Easy 2",
        "Bot Strong 10",
        "Bot Random",
        "bot medium 12",
        "Bot Easy l2",
        "ВОТ EASY",
    ],
)
def test_every_bot_name_is_reserved_in_any_case_and_spacing(client: Client, name: str) -> None:
    response = signup(client, "squatter@example.com", name)
    assert refused(response, "squatter@example.com")


@pytest.mark.parametrize(
    "name",
    [
        "Bot Easy \u0968",  # DEVANAGARI DIGIT TWO
        "Bot Easy \u0662",  # ARABIC-INDIC DIGIT TWO
        "Bot Easy \u06f2",  # EXTENDED ARABIC-INDIC DIGIT TWO
        "\u0412\u043e\u0442 \u0415\u0430s\u0443 \u1042",  # Cyrillic "Вот Еаsу", MYANMAR DIGIT TWO
        "B o t E a s y 2",
    ],
)
def test_a_bot_name_numbered_in_another_scripts_digits_or_spaced_out_is_reserved(
    client: Client, name: str
) -> None:
    assert refused(signup(client, "squatter@example.com", name), "squatter@example.com")


@pytest.mark.parametrize(
    "name", ["P l a y e r 01", "Player-01", "Player \u0660\u0661", "Player.\u0966\u0967"]
)
def test_a_taken_name_spaced_out_punctuated_or_in_another_scripts_digits_is_taken(
    client: Client, name: str
) -> None:
    User.objects.create_user(username="p01", email="p01@example.com", display_name="Player 01")
    response = signup(client, "twin@example.com", name)
    assert refused(response, "twin@example.com")
    assert "looks too much like" in response.content.decode()


@pytest.mark.parametrize("name", ["Botany", "Bot Hard", "Easy Bot", "Robot Easy"])
def test_names_that_only_start_like_a_bot_pass(client: Client, name: str) -> None:
    signup(client, "botanist@example.com", name)
    assert User.objects.filter(email="botanist@example.com").exists()


@pytest.mark.parametrize("name", ["Deleted Player", "deleted-7", "Deleted 12", "ADMIN", "Sуstem"])
def test_the_sites_own_names_are_reserved(client: Client, name: str) -> None:
    assert refused(signup(client, "new@example.com", name), "new@example.com")


# --- the admin --------------------------------------------------------------------------------


def test_staff_renaming_to_a_look_alike_get_a_form_error_not_a_500(client: Client, olga: User) -> None:
    root = User.objects.create_superuser(username="root", password=None, display_name="Root")
    other = User.objects.create_user(username="ivan", display_name="Ivan")
    client.force_login(root)
    url = reverse("admin:accounts_user_change", args=[other.pk])
    page = client.get(url)
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "password"}
    data.update({"display_name": "Оlga Petrova", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"})
    data.pop("date_joined", None)
    data.pop("last_login", None)
    data.pop("groups", None)
    data.pop("user_permissions", None)
    response = client.post(url, data)
    assert response.status_code == 200
    assert "looks too much like one already taken" in response.content.decode()
    other.refresh_from_db()
    assert other.display_name == "Ivan"


# --- the migration that filled existing users ------------------------------------------------


def user_model_before(migration: str) -> Any:
    """The database migrated back to just after ``migration`` of accounts; its ``User`` model."""
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", migration)])
    return executor.loader.project_state([("accounts", migration)]).apps.get_model("accounts", "User")


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_skeletons_and_keeps_old_look_alikes_apart() -> None:
    """Users from before the skeleton, two of them look-alikes: the index still builds, the
    later twin keeps their name, and new names are compared with both."""
    old = user_model_before("0003_ratings_moved")
    first = old.objects.create(username="a", display_name="Olga")
    twin = old.objects.create(username="b", display_name="Оlga")  # Cyrillic О, from before the check
    migrate_to_latest()
    first_key = User.objects.get(pk=first.pk).display_name_key
    twin_user = User.objects.get(pk=twin.pk)
    assert first_key == skeleton("Olga")
    assert twin_user.display_name == "Оlga" and twin_user.display_name_key == f"{skeleton('Olga')}#{twin.pk}"
    twin_user.save()  # a later save of the old twin keeps its key, so it does not collide
    assert User.objects.get(pk=twin.pk).display_name_key.endswith(f"#{twin.pk}")
    with pytest.raises(IntegrityError):
        User.objects.create_user(username="c", display_name="OIga")


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_skeletons_in_capitals_without_renaming_anybody() -> None:
    """Two accounts from before it whose names are one in capitals (a name and a look-alike of it
    in another case) both keep their names; a new name is compared with both."""
    old = user_model_before("0007_user_display_name_changed_at")
    first = old.objects.create(username="a", display_name="ivan", display_name_key=skeleton("ivan"))
    twin = old.objects.create(username="b", display_name="\u0406VAN", display_name_key=skeleton("\u0406VAN"))
    migrate_to_latest()
    key = capitals_skeleton("IVAN")
    assert User.objects.get(pk=first.pk).display_name_capitals_key == key
    twin_user = User.objects.get(pk=twin.pk)
    # The later one keeps its name, its key marked with its id (0009's unique index builds).
    assert twin_user.display_name == "\u0406VAN" and twin_user.display_name_capitals_key == f"{key}#{twin.pk}"
    twin_user.save()  # a later save keeps the mark while the name stays
    assert User.objects.get(pk=twin.pk).display_name_capitals_key == f"{key}#{twin.pk}"
    # "ivan" with a Cyrillic а, in capitals, is the earlier one's key: compared with it.
    looks = User.objects.filter(display_name_capitals_key=capitals_skeleton("IV\u0410N"))
    assert list(looks.values_list("pk", flat=True)) == [first.pk]


@pytest.mark.django_db(transaction=True)
def test_the_migration_to_plain_skeletons_keeps_old_spaced_out_twins_apart_without_renaming() -> None:
    """Two accounts from before skeletons left out spaces ("Player 01" and "P l a y e r 01"):
    both keep their names, the later one's keys are marked with its id, and a new name is
    compared with the earlier one's key."""
    old = user_model_before("0009_display_name_capitals_key_unique")
    first = old.objects.create(
        username="a", display_name="Player 01", display_name_key="k1", display_name_capitals_key="c1"
    )
    twin = old.objects.create(
        username="b", display_name="P l a y e r 01", display_name_key="k2", display_name_capitals_key="c2"
    )
    migrate_to_latest()
    assert User.objects.get(pk=first.pk).display_name_key == skeleton("Player 01")
    twin_user = User.objects.get(pk=twin.pk)
    assert twin_user.display_name == "P l a y e r 01"
    assert twin_user.display_name_key == f"{skeleton('Player 01')}#{twin.pk}"
    assert twin_user.display_name_capitals_key == f"{capitals_skeleton('Player 01')}#{twin.pk}"
    with pytest.raises(IntegrityError):
        User.objects.create_user(username="c", display_name="Player \u0660\u0661")
