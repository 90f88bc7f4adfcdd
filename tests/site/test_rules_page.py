"""The rules page (issue #17, item 17): ``docs/rules.md`` and its Russian translation rendered at
``/rules/`` in the viewer's language, with the same anchors in both, so that every option link of
the create-table form lands in the same place in either language."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from club.rules import rules_page, source_path
from play.forms import TableCreateForm

pytestmark = pytest.mark.django_db

#: The create-table form's fields that are rules, not the site's own settings.
SITE_FIELDS = {"rated", "turn_seconds", "private", "watch"}


def page(language: str) -> str:
    client = Client()
    client.cookies["django_language"] = language
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


def test_the_rules_are_shown_in_each_language() -> None:
    english, russian = page("en"), page("ru")
    assert "<h1>The rules we play</h1>" in english
    assert "<h1>Правила, по которым мы играем</h1>" in russian
    assert "Who attacks" in english and "Кто ходит" in russian
    assert english.count("<h1") == russian.count("<h1") == 1
    assert source_path("ru").name == "rules.ru.md" and source_path("en").name == "rules.md"


def test_both_texts_have_the_same_sections_and_anchors() -> None:
    english, russian = rules_page("en"), rules_page("ru")
    assert english.anchors == russian.anchors
    assert [s.anchor for s in english.sections] == [s.anchor for s in russian.sections]
    assert {
        "table-options",
        "cards",
        "who-attacks",
        "bout",
        "transfer",
        "circle",
        "turns-and-timeouts",
    } <= english.anchors
    for section in english.sections:
        assert f'href="#{section.anchor}"' in page("en")


def test_every_table_option_has_an_anchor() -> None:
    options = set(TableCreateForm.base_fields) - SITE_FIELDS
    assert {f"option-{name}" for name in options} <= rules_page("en").anchors


def test_the_create_table_form_links_each_option_to_its_anchor() -> None:
    client = Client()
    client.force_login(User.objects.create_user(username="r", password=None, display_name="Reader"))
    for language in ("en", "ru"):
        client.cookies["django_language"] = language
        html = client.get(reverse("games:table_create")).content.decode()
        anchors = re.findall(r'class="field__rule" href="/rules/#([^"]+)"', html)
        options = set(TableCreateForm.base_fields) - SITE_FIELDS
        assert {f"option-{name}" for name in options} <= set(anchors)
        assert set(anchors) <= rules_page(language).anchors


def test_the_page_is_rendered_once_and_in_the_navigation() -> None:
    assert rules_page("ru") is rules_page("ru")
    home = Client().get(reverse("home")).content.decode()
    assert 'href="/rules/"' in home
    assert 'href="/rules/" aria-current="page"' in page("en")
