"""A mail server that fails (SMTP errors, refused or timed-out connections) never costs a 500:
the account is kept, the page says the mail did not go out, and it can be sent again later."""

from __future__ import annotations

import smtplib
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.core.mail.backends.locmem import EmailBackend
from django.test import Client
from django.urls import reverse

from accounts.models import User

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

FAILURES: list[Callable[[], Exception]] = [
    lambda: smtplib.SMTPException("451 4.3.0 try again later"),
    lambda: smtplib.SMTPServerDisconnected("Connection unexpectedly closed"),
    lambda: ConnectionRefusedError(111, "Connection refused"),
    lambda: TimeoutError("timed out"),
    lambda: OSError(101, "Network is unreachable"),
]
IDS = ["smtp-error", "disconnected", "refused", "timeout", "unreachable"]


@pytest.fixture(params=FAILURES, ids=IDS)
def mail_down(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """The mailer raises; calling the returned function brings it back."""
    working = EmailBackend.send_messages

    def fail(self: EmailBackend, messages: Any) -> int:
        raise request.param()

    monkeypatch.setattr(EmailBackend, "send_messages", fail)
    return lambda: monkeypatch.setattr(EmailBackend, "send_messages", working)


def signup(client: Client, email: str, name: str) -> Any:
    return client.post(
        reverse("account_signup"),
        {"email": email, "display_name": name, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_signup_with_the_mail_server_down_keeps_the_account_and_says_so(
    client: Client, mail_down: Callable[[], None]
) -> None:
    response = signup(client, "olga@example.com", "Olga")
    assert response.status_code == 302
    assert User.objects.filter(email="olga@example.com").exists()
    page = client.get(response["Location"], follow=True).content.decode()
    assert "could not be sent just now" in page
    assert "Confirmation email sent" not in page


def test_the_confirmation_can_be_sent_again_once_the_mail_server_is_back(
    client: Client, mail_down: Callable[[], None]
) -> None:
    signup(client, "olga@example.com", "Olga")
    mail_down()  # the server is back
    cache.clear()  # ... a few minutes later: allauth allows one confirmation per address in 3 min
    response = client.post(reverse("account_email"), {"email": "olga@example.com", "action_send": ""})
    assert response.status_code == 302
    assert [message.to for message in mail.outbox] == [["olga@example.com"]]


def test_mandatory_verification_with_the_mail_server_down(
    client: Client, mail_down: Callable[[], None], settings: Any
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    response = signup(client, "olga@example.com", "Olga")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "could not be sent" in page
    assert "We have sent an email to you for verification" not in page
    assert User.objects.filter(email="olga@example.com").exists()
    mail_down()
    cache.clear()
    client.post(reverse("account_login"), {"login": "olga@example.com", "password": PASSWORD})
    assert [message.to for message in mail.outbox] == [["olga@example.com"]]


def test_password_reset_with_the_mail_server_down_says_no_mail_went_out(
    client: Client, player: User, mail_down: Callable[[], None]
) -> None:
    response = client.post(reverse("account_reset_password"), {"email": player.email}, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "No email went out" in page
    assert "We have sent you an email" not in page
    mail_down()
    response = client.post(reverse("account_reset_password"), {"email": player.email}, follow=True)
    assert "We have sent you an email" in response.content.decode()
    assert [message.to for message in mail.outbox] == [[player.email]]


def test_a_reset_for_an_unknown_address_fails_the_same_way(
    client: Client, mail_down: Callable[[], None]
) -> None:
    """The answer must not tell whether an account exists, mail server or not."""
    response = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"}, follow=True)
    assert response.status_code == 200
    assert "No email went out" in response.content.decode()
