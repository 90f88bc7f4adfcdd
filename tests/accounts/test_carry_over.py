"""What a visitor did in this browser is carried to the account they sign up or sign in to (issue
#40): the lessons' progress kept in the session (``learn.receivers``) and the blind-mode cookie
(``accounts.blind_mode.carry``), through allauth's own sign-up and sign-in pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import blind_mode
from accounts.models import User
from learn.models import LessonProgress
from learn.selectors import SESSION_KEY
from tests.learn.test_pages import finish

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

TRUMPS_1 = {"kind": "cover", "cards": ["7D"], "target": "AS"}


def signup(client: Client, email: str = "nina@example.com") -> Any:
    return client.post(
        reverse("account_signup"),
        {"email": email, "display_name": "Nina", "password1": PASSWORD, "password2": PASSWORD},
    )


def login(client: Client, user: User) -> Any:
    return client.post(reverse("account_login"), {"login": user.email, "password": PASSWORD})


def visitor_with_lessons_and_blind_mode() -> Client:
    """A visitor who answered the first step of "trumps", finished "transfer" and chose blind mode."""
    client = Client()
    client.post(reverse("learn:answer", args=["trumps", 1]), TRUMPS_1)
    finish(client, "transfer")
    client.post(reverse("accounts:blind_mode"), {"on": "1"})
    assert client.session[SESSION_KEY] == {"trumps": [1, False], "transfer": [3, True]}
    assert client.cookies[blind_mode.COOKIE].value == "1"
    return client


def progress(user: User) -> dict[str, tuple[int, bool]]:
    rows = LessonProgress.objects.filter(user=user).values_list("lesson", "reached", "done")
    return {slug: (reached, done) for slug, reached, done in rows}


def test_signing_up_keeps_the_visitors_lessons_and_blind_mode() -> None:
    client = visitor_with_lessons_and_blind_mode()
    assert signup(client).status_code == 302
    nina = User.objects.get(email="nina@example.com")
    assert progress(nina) == {"trumps": (1, False), "transfer": (3, True)}
    assert nina.blind_mode is True
    assert SESSION_KEY not in client.session  # the account's rows are read from now on
    assert "1 of 11 lessons finished" in client.get(reverse("learn:index")).content.decode()
    assert "Step 2 of 2" in client.get(reverse("learn:lesson", args=["trumps"])).content.decode()


def test_signing_in_moves_the_account_on_and_never_back(player: User) -> None:
    LessonProgress.objects.create(user=player, lesson="trumps", reached=2, done=True)
    LessonProgress.objects.create(user=player, lesson="transfer", reached=1, done=False)
    client = visitor_with_lessons_and_blind_mode()
    assert login(client, player).status_code == 302
    assert progress(player) == {"trumps": (2, True), "transfer": (3, True)}
    player.refresh_from_db()
    assert player.blind_mode is True
    # Signing in again from the same browser carries nothing more.
    client.logout()
    assert login(client, player).status_code == 302
    assert progress(player) == {"trumps": (2, True), "transfer": (3, True)}


def test_a_sign_up_that_waits_for_the_address_carries_at_once(settings: Any) -> None:
    """With confirmation required the sign-up does not sign in (no ``user_logged_in``): allauth's
    ``user_signed_up`` carries it, though the confirming click may come from another browser."""
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    client = visitor_with_lessons_and_blind_mode()
    signup(client)
    nina = User.objects.get(email="nina@example.com")
    assert "_auth_user_id" not in client.session
    assert progress(nina) == {"trumps": (1, False), "transfer": (3, True)}
    assert nina.blind_mode is True


def test_a_browser_that_chose_nothing_leaves_the_accounts_blind_mode(player: User) -> None:
    User.objects.filter(pk=player.pk).update(blind_mode=True)
    client = Client()
    assert login(client, player).status_code == 302
    player.refresh_from_db()
    assert player.blind_mode is True and progress(player) == {}


def test_turning_blind_mode_off_on_the_account_drops_the_visitors_cookie(player: User) -> None:
    """Else the old visitor's cookie would turn it on again at the next sign-in from this browser."""
    client = visitor_with_lessons_and_blind_mode()
    login(client, player)
    response = client.post(reverse("accounts:blind_mode"), {"on": "0"})
    assert response.cookies[blind_mode.COOKIE].value == ""  # deleted
    client.logout()
    login(client, player)
    player.refresh_from_db()
    assert player.blind_mode is False
