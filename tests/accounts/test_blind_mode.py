"""Blind mode's switch (``accounts.views.blind_mode``, ``docs/accessibility.md``): kept on the
account for a player and in a cookie for a visitor, limited per address and per account, and
never sending anyone off the site."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts import blind_mode
from accounts.models import User
from tests.play.services_support import make_user, start_match

pytestmark = pytest.mark.django_db


def test_a_player_turns_blind_mode_on_and_off_on_the_account(player: User) -> None:
    client = Client()
    client.force_login(player)
    response = client.post(reverse("accounts:blind_mode"), {"on": "1", "next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    player.refresh_from_db()
    assert player.blind_mode is True
    assert blind_mode.COOKIE not in response.cookies
    client.post(reverse("accounts:blind_mode"), {"on": "0", "next": "/play/"})
    player.refresh_from_db()
    assert player.blind_mode is False


def test_a_visitor_keeps_blind_mode_in_a_cookie() -> None:
    client = Client()
    response = client.post(reverse("accounts:blind_mode"), {"on": "1", "next": "/rules/"})
    assert response.cookies[blind_mode.COOKIE].value == "1"
    response = client.post(reverse("accounts:blind_mode"), {"on": "0"})
    assert response.cookies[blind_mode.COOKIE].value == ""  # deleted
    assert response["Location"] == "/"


def test_next_never_leaves_the_site(player: User) -> None:
    client = Client()
    client.force_login(player)
    response = client.post(reverse("accounts:blind_mode"), {"on": "1", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_the_switch_is_limited_per_account(player: User, settings: object) -> None:
    settings.ACCOUNT_RATE_LIMITS = {"blind_mode": "100/m/ip", "blind_mode_account": "2/m/user"}  # type: ignore[attr-defined]
    client = Client()
    client.force_login(player)
    codes = [client.post(reverse("accounts:blind_mode"), {"on": "1"}).status_code for _ in range(3)]
    assert codes == [302, 302, 429]


def test_a_get_is_refused() -> None:
    assert Client().get(reverse("accounts:blind_mode")).status_code == 405


def test_the_match_page_in_blind_mode_has_the_panel_and_not_the_pointer_hint() -> None:
    olga, ivan = make_user("olga"), make_user("ivan")
    match = start_match(humans=[olga, ivan])
    client = Client()
    client.force_login(olga)
    page = reverse("games:match", args=[match.pk])
    html = client.get(page).content.decode()
    assert "data-first-hint" in html and 'id="blind-said"' not in html
    User.objects.filter(pk=olga.pk).update(blind_mode=True)
    html = client.get(page).content.decode()
    assert "data-first-hint" not in html and 'id="blind-said"' in html
