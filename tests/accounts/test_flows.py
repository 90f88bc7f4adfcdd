"""Account flows through allauth and the club's own pages."""

import re

import pytest
from django.core import mail
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from accounts.models import User

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def signup(client: Client, email: str, display_name: str, password: str = PASSWORD):  # type: ignore[no-untyped-def]
    return client.post(
        reverse("account_signup"),
        {"email": email, "display_name": display_name, "password1": password, "password2": password},
    )


def login(client: Client, email: str, password: str):  # type: ignore[no-untyped-def]
    return client.post(reverse("account_login"), {"login": email, "password": password})


def test_signup_creates_a_logged_in_player_with_a_display_name(client: Client) -> None:
    response = signup(client, "olga@example.com", "Olga")
    assert response.status_code == 302
    user = User.objects.get(email="olga@example.com")
    assert user.display_name == "Olga"
    assert not user.is_bot
    assert client.get(reverse("accounts:me"))["Location"] == reverse("club:profile", args=[user.pk])


def test_two_signups_get_distinct_usernames(client: Client) -> None:
    signup(client, "a@example.com", "Anna")
    signup(Client(), "b@example.com", "Boris")
    assert User.objects.filter(email__in=["a@example.com", "b@example.com"]).count() == 2


def test_display_names_are_unique_whatever_the_case(client: Client, player: User) -> None:
    response = signup(client, "other@example.com", "VASYA")
    assert response.status_code == 200
    assert "This display name is already taken." in response.content.decode()
    assert not User.objects.filter(email="other@example.com").exists()


def test_the_database_enforces_case_insensitive_display_names(player: User) -> None:
    with pytest.raises(IntegrityError):
        User.objects.create_user(username="other", display_name="vAsYa")


@pytest.mark.parametrize("name", ["deleted player", "Deleted-7", "x", "<script>"])
def test_reserved_or_malformed_display_names_are_refused(client: Client, name: str) -> None:
    response = signup(client, "new@example.com", name)
    assert response.status_code == 200
    assert not User.objects.filter(email="new@example.com").exists()


def test_login_and_logout(client: Client, player: User) -> None:
    response = login(client, player.email, PASSWORD)
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == player
    client.post(reverse("account_logout"))
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_wrong_password_does_not_log_in(client: Client, player: User) -> None:
    response = login(client, player.email, "not-the-password")
    assert response.status_code == 200
    assert not response.context["user"].is_authenticated


def test_failed_logins_are_rate_limited(client: Client, player: User) -> None:
    """allauth answers the sixth failed attempt on one address with a form error, not a check."""
    for attempt in range(5):
        assert (
            "Too many failed login attempts"
            not in login(client, player.email, f"wrong-{attempt}").content.decode()
        )
    assert "Too many failed login attempts" in login(client, player.email, "wrong").content.decode()
    # Even the right password is refused until the window passes.
    response = login(client, player.email, PASSWORD)
    assert response.status_code == 200
    assert not response.context["user"].is_authenticated


def test_signups_are_rate_limited_per_address(client: Client) -> None:
    statuses = [signup(client, f"p{i}@example.com", f"Player {i}").status_code for i in range(11)]
    assert 429 not in statuses[:10]
    assert statuses[10] == 429


def test_password_reset_mails_a_working_link(client: Client, player: User) -> None:
    response = client.post(reverse("account_reset_password"), {"email": player.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [player.email]
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", str(mail.outbox[0].body))
    assert link is not None
    form_page = client.get(link.group(1), follow=True)
    new_password = "another-long-card-password"
    response = client.post(
        form_page.redirect_chain[-1][0] if form_page.redirect_chain else link.group(1),
        {"password1": new_password, "password2": new_password},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password(new_password)


def test_password_change(client: Client, player: User) -> None:
    client.force_login(player)
    new_password = "a-fresh-long-password"
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": new_password, "password2": new_password},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password(new_password)


def test_profile_page_is_public(client: Client, player: User) -> None:
    response = client.get(reverse("club:profile", args=[player.pk]))
    assert response.status_code == 200
    assert "Vasya" in response.content.decode()
    assert "vasya@example.com" not in response.content.decode()


def test_profile_of_a_missing_player_is_404(client: Client) -> None:
    assert client.get(reverse("club:profile", args=[999_999])).status_code == 404


def test_deletion_needs_the_password(client: Client, player: User) -> None:
    client.force_login(player)
    response = client.post(reverse("accounts:delete"), {"password": "wrong"})
    assert response.status_code == 200
    player.refresh_from_db()
    assert not player.is_deleted


def test_deletion_anonymises_and_keeps_the_row(client: Client, player: User) -> None:
    client.force_login(player)
    response = client.post(reverse("accounts:delete"), {"password": PASSWORD})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.is_deleted
    assert not player.is_active
    assert player.email == ""
    assert not player.has_usable_password()
    assert player.public_name == "deleted player"
    assert str(player) == "deleted player"
    # Logged out, cannot log in again, and the name is free for someone else.
    assert not client.get(reverse("home")).context["user"].is_authenticated
    assert login(Client(), "vasya@example.com", PASSWORD).status_code == 200
    page = client.get(reverse("club:profile", args=[player.pk])).content.decode()
    assert "deleted player" in page
    assert "Vasya" not in page
    assert signup(Client(), "new@example.com", "Vasya").status_code == 302


def test_deleted_player_shows_translated(client: Client, player: User) -> None:
    from django.utils import translation

    from accounts.services import user_anonymise

    user_anonymise(user=player)
    with translation.override("ru"):
        assert player.public_name == "удалённый игрок"
