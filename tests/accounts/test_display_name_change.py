"""Names in allauth's words and mails, and changing one's display name (issue #17, item 14):
"signed in as" names the display name, not the username made from the email; mails come from the
club's name, not the host; a player may change their name under the signup's rules, once in 30
days."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import NameChangeTooSoon, display_name_change

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def person(username: str, name: str) -> User:
    return User.objects.create_user(
        username=username, email=f"{username}@example.com", password=None, display_name=name
    )


def test_signing_up_says_signed_in_as_the_display_name() -> None:
    response = Client().post(
        reverse("account_signup"),
        {
            "email": "olga.k@example.com",
            "display_name": "Ольга К",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )
    shown = [str(m) for m in response.context["messages"]]
    user = User.objects.get(email="olga.k@example.com")
    signed_in = [m for m in shown if "signed in as" in m]
    assert signed_in == ["Successfully signed in as Ольга К."], (shown, user.username)


def test_mails_greet_from_the_clubs_name_not_the_host() -> None:
    User.objects.create_user(
        username="olga", email="olga@example.com", password=PASSWORD, display_name="Olga"
    )
    Client().post(reverse("account_reset_password"), {"email": "olga@example.com"})
    assert mail.outbox, "no mail was sent"
    body = mail.outbox[-1].body
    assert "Hello from Durak club!" in body
    assert "Hello from testserver" not in body and "127.0.0.1" not in body.split("\n")[0]


def test_a_player_changes_their_name_once_in_30_days() -> None:
    olga = person("olga", "Olga")
    client = Client()
    client.force_login(olga)
    page = client.get(reverse("accounts:name")).content.decode()
    assert "once in 30 days" in page
    response = client.post(reverse("accounts:name"), {"display_name": "  Olga   the Bold "})
    assert response.status_code == 302
    olga.refresh_from_db()
    assert olga.display_name == "Olga the Bold" and olga.display_name_changed_at is not None
    # Too soon: the page says when, and a post changes nothing.
    page = client.get(reverse("accounts:name")).content.decode()
    assert "data-next-change" in page
    client.post(reverse("accounts:name"), {"display_name": "Olga Again"})
    olga.refresh_from_db()
    assert olga.display_name == "Olga the Bold"
    with pytest.raises(NameChangeTooSoon):
        display_name_change(user=olga, name="Olga Again")
    # Thirty days later it may change again.
    long_ago = timezone.now() - timedelta(days=30, minutes=1)
    User.objects.filter(pk=olga.pk).update(display_name_changed_at=long_ago)
    olga.refresh_from_db()
    display_name_change(user=olga, name="Olga Again")
    assert User.objects.get(pk=olga.pk).display_name == "Olga Again"


@pytest.mark.parametrize("name", ["Ivan", "IVAN", "Bot Easy", "x", "Ivan\u200b"])
def test_a_new_name_follows_the_signup_rules(name: str) -> None:
    person("ivan", "Ivan")
    olga = person("olga", "Olga")
    client = Client()
    client.force_login(olga)
    response = client.post(reverse("accounts:name"), {"display_name": name})
    assert response.status_code == 200
    olga.refresh_from_db()
    assert olga.display_name == "Olga" and olga.display_name_changed_at is None


def test_the_profile_links_to_the_name_change_for_its_owner_only() -> None:
    olga = person("olga", "Olga")
    client = Client()
    client.force_login(olga)
    assert reverse("accounts:name") in client.get(reverse("club:profile", args=[olga.pk])).content.decode()
    visitor = Client().get(reverse("club:profile", args=[olga.pk])).content.decode()
    assert reverse("accounts:name") not in visitor
