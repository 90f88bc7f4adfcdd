"""The display-name rule is read before the first submit (issue #37, item 8): the signup form and
the name-change form both say, in the page's language, that a name starts and ends with a letter
or digit, so nobody learns the rule from a refusal."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

RULE = {
    "en": "it starts and ends with a letter or digit",
    "ru": "начинается и заканчивается буквой или цифрой",
}


def page(client: Client, url: str, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_signup_form_states_the_name_rule_before_any_submit(language: str) -> None:
    assert RULE[language] in page(Client(), reverse("account_signup"), language)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_name_change_form_states_the_name_rule_before_any_submit(language: str) -> None:
    olga = User.objects.create_user(
        username="olga", email="olga@example.com", password=None, display_name="Olga"
    )
    client = Client()
    client.force_login(olga)
    assert RULE[language] in page(client, reverse("accounts:name"), language)
