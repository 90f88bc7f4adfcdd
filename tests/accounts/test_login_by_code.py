"""A stranger's wrong passwords cannot lock a player out (issue 35 §4): allauth's lockout (5 failed
passwords in 5 minutes per email) still guards the password, and the owner signs in with a code
sent to their email, which those failures do not count against. Asking for codes is limited per
address and per email so that a stranger can neither flood the owner's mailbox nor keep the owner
from getting a code for more than a few minutes (``ACCOUNT_RATE_LIMITS["request_login_code"]``)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

STRANGER = "203.0.113.9"
OWNER = "198.51.100.20"


def _password_login(client: Client, email: str, password: str, address: str) -> str:
    response = client.post(
        reverse("account_login"), {"login": email, "password": password}, REMOTE_ADDR=address
    )
    return str(response.content.decode())


def _stranger_locks_the_account(player: User) -> None:
    stranger = Client()
    for attempt in range(5):
        _password_login(stranger, player.email, f"guess-{attempt}", STRANGER)
    assert "Too many failed login attempts" in _password_login(stranger, player.email, "guess", STRANGER)


def _code_from_mail() -> str:
    assert len(mail.outbox) == 1
    return _code_from_mail_last()


def _code_from_mail_last() -> str:
    found = re.search(r"^\s*([A-Z0-9]{4}-[A-Z0-9]{4})\s*$", str(mail.outbox[-1].body), re.MULTILINE)
    assert found, mail.outbox[-1].body
    return found.group(1)


def test_after_a_strangers_five_wrong_passwords_the_owner_signs_in_with_an_emailed_code(
    player: User,
) -> None:
    _stranger_locks_the_account(player)
    owner = Client()
    locked = _password_login(owner, player.email, PASSWORD, OWNER)
    assert "Too many failed login attempts" in locked and "sign-in code" in locked  # the way in is named
    assert "_auth_user_id" not in owner.session  # the right password waits out the lockout
    login_page = owner.get(reverse("account_login")).content.decode()
    assert reverse("account_request_login_code") in login_page
    asked = owner.post(reverse("account_request_login_code"), {"email": player.email}, REMOTE_ADDR=OWNER)
    assert asked.status_code == 302 and asked["Location"].startswith(reverse("account_confirm_login_code"))
    assert mail.outbox[0].to == [player.email]
    signed_in = owner.post(
        reverse("account_confirm_login_code"), {"code": _code_from_mail()}, REMOTE_ADDR=OWNER
    )
    assert signed_in.status_code == 302
    assert owner.session["_auth_user_id"] == str(player.pk)


def test_the_code_is_guarded_against_guessing_three_wrong_codes_end_it(player: User) -> None:
    _stranger_locks_the_account(player)
    guesser = Client()
    guesser.post(reverse("account_request_login_code"), {"email": player.email}, REMOTE_ADDR=STRANGER)
    code = _code_from_mail()  # the stranger cannot read it; used below to show it is dead
    for guess in ("AAAA-AAAA", "BBBB-BBBB", "CCCC-CCCC"):
        guesser.post(reverse("account_confirm_login_code"), {"code": guess}, REMOTE_ADDR=STRANGER)
    guesser.post(reverse("account_confirm_login_code"), {"code": code}, REMOTE_ADDR=STRANGER)
    assert "_auth_user_id" not in guesser.session


def test_the_login_page_and_the_lockout_offer_the_code_in_both_languages(
    client: Client, player: User
) -> None:
    assert "Send me a sign-in code" in client.get(reverse("account_login")).content.decode()
    _stranger_locks_the_account(player)
    client.cookies["django_language"] = "ru"
    assert "Пришлите мне код для входа" in client.get(reverse("account_login")).content.decode()
    locked = _password_login(client, player.email, PASSWORD, OWNER)
    assert "попросите код для входа по почте" in locked


def _ask_code(email: str, address: str, client: Client | None = None) -> bool:
    """``address`` asks for a sign-in code for ``email``; whether one was sent."""
    sent = len(mail.outbox)
    response = (client or Client()).post(
        reverse("account_request_login_code"), {"email": email}, REMOTE_ADDR=address
    )
    assert response.status_code in (200, 302)
    return len(mail.outbox) == sent + 1


def _minutes_later(monkeypatch: pytest.MonkeyPatch, minutes: float) -> None:
    """allauth's rate-limit clock (``time.time`` in its module) ``minutes`` ahead."""
    import time as real_time

    from allauth.core.internal import ratelimit

    class Clock:
        monotonic = staticmethod(real_time.monotonic)

        @staticmethod
        def time() -> float:
            return real_time.time() + minutes * 60

    monkeypatch.setattr(ratelimit, "time", Clock)


def test_one_strangers_address_cannot_use_up_the_owners_sign_in_codes(player: User) -> None:
    asked = [_ask_code(player.email, STRANGER) for _ in range(10)]
    assert asked.count(True) == 2  # then this address is refused, for any email
    assert not _ask_code("someone-else@example.com", STRANGER)
    owner = Client()
    assert _ask_code(player.email, OWNER, owner)
    signed_in = owner.post(
        reverse("account_confirm_login_code"), {"code": _code_from_mail_last()}, REMOTE_ADDR=OWNER
    )
    assert signed_in.status_code == 302 and owner.session["_auth_user_id"] == str(player.pk)


def test_strangers_at_many_addresses_hold_the_owner_back_five_minutes_at_most(
    player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = [_ask_code(player.email, f"203.0.113.{n}") for n in range(1, 9)]
    assert sent.count(True) == 5  # the mailbox gets at most 5 codes in 5 minutes
    refused = Client().post(reverse("account_request_login_code"), {"email": player.email}, REMOTE_ADDR=OWNER)
    assert "Too many sign-in codes were asked for just now" in refused.content.decode()
    _minutes_later(monkeypatch, 5.1)
    assert _ask_code(player.email, OWNER)


def test_a_strangers_code_request_does_not_void_the_code_the_owner_holds(player: User) -> None:
    owner = Client()
    assert _ask_code(player.email, OWNER, owner)
    code = _code_from_mail_last()
    assert _ask_code(player.email, STRANGER)  # a second code, in the stranger's session
    signed_in = owner.post(reverse("account_confirm_login_code"), {"code": code}, REMOTE_ADDR=OWNER)
    assert signed_in.status_code == 302 and owner.session["_auth_user_id"] == str(player.pk)


def test_a_refused_code_request_says_so_in_russian(player: User) -> None:
    for _ in range(2):
        _ask_code(player.email, STRANGER)
    client = Client(headers={"accept-language": "ru"})
    refused = client.post(
        reverse("account_request_login_code"), {"email": player.email}, REMOTE_ADDR=STRANGER
    )
    assert "Только что запросили слишком много кодов для входа" in refused.content.decode()
