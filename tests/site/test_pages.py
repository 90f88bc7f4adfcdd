"""The site's pages: navigation without broken links, the language switch, security headers."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def internal_links(html: str) -> set[str]:
    return {href for href in re.findall(r'href="(/[^"]*)"', html) if not href.startswith("/static/")}


def test_home_says_what_the_site_is(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert "Play Durak online" in page
    assert "podkidnoy" in page


@pytest.mark.parametrize("logged_in", [False, True])
def test_every_link_on_the_home_page_works(client: Client, logged_in: bool) -> None:
    if logged_in:
        client.force_login(User.objects.create_user(username="s", display_name="Staff", is_staff=True))
    links = internal_links(client.get(reverse("home")).content.decode())
    assert {"/play/", "/tournaments/", "/leaderboard/", "/history/"} <= links
    for link in links:
        assert client.get(link, follow=True).status_code == 200, link


def test_language_switch_to_russian(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "ru", "next": "/"}, follow=True)
    page = response.content.decode()
    assert '<html lang="ru"' in page
    assert "Играть" in page


def test_accept_language_header_picks_russian(client: Client) -> None:
    page = client.get(reverse("home"), headers={"accept-language": "ru"}).content.decode()
    assert "Клуб" in page


def test_allauth_pages_use_the_site_layout(client: Client) -> None:
    for name in ("account_login", "account_signup", "account_reset_password"):
        page = client.get(reverse(name)).content.decode()
        assert 'class="site-header"' in page, name
        assert "css/site.css" in page, name


def test_pages_carry_a_content_security_policy_with_a_nonce(client: Client) -> None:
    response = client.get(reverse("home"))
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in policy
    nonce = re.search(r"'nonce-([^']+)'", policy).group(1)  # type: ignore[union-attr]
    assert f'nonce="{nonce}"' in response.content.decode()


def test_htmx_and_its_ws_extension_are_served_locally(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert "/static/django_htmx/htmx-2.min.js" in page
    assert "/static/django_htmx/ext/hx-ws-2.min.js" in page
    assert "cdn" not in page.lower()
