"""The card tags remember their drawings per language (``games.templatetags.cards``): a remembered
drawing is the one the tag would draw now, and it never crosses languages or a settings change."""

from __future__ import annotations

from django.test import override_settings
from django.utils import translation

from games import memos
from games.templatetags import cards
from games.templatetags.cards import card, card_back, card_label, card_name, card_text
from play.presenters import HandCard, ShownPair


def test_a_remembered_drawing_is_the_fresh_one() -> None:
    memos.forget()
    with translation.override("en"):
        fresh = (card("QS", "lg"), card_back("sm"), card_text("10H"), card_name("RJ"), card_label("AD"))
        again = (card("QS", "lg"), card_back("sm"), card_text("10H"), card_name("RJ"), card_label("AD"))
        assert again == fresh
        assert cards.card.cache_info().hits >= 1
        assert HandCard("10H", legal=True).face == card("10H", "lg")
        pair = ShownPair("7D", "9D", targetable=False)
        assert (pair.attack_face, pair.cover_face) == (card("7D"), card("9D"))
        assert ShownPair("7D", None, targetable=True).cover_face == ""


def test_each_language_gets_its_own_drawing() -> None:
    with translation.override("en"):
        english = card("QS"), card_name("QS")
    with translation.override("ru"):
        russian = card("QS"), card_name("QS")
    with translation.override("en"):
        assert (card("QS"), card_name("QS")) == english
    assert english[0] != russian[0] and english[1] != russian[1]


def test_a_changed_setting_forgets_every_drawing() -> None:
    with translation.override("en"):
        card("KH")
        with override_settings(STATIC_URL="/elsewhere/"):
            assert "/elsewhere/" in card("KH")
        assert "/elsewhere/" not in card("KH")
