"""The presenter's remembered card drawings (``games.presenters.card_face``) equal the card tag's,
in the language active when they are drawn: a cached drawing never crosses languages."""

from __future__ import annotations

from django.utils import translation

from games.presenters import HandCard, PairView, card_face
from games.templatetags.cards import card


def test_a_remembered_face_is_the_card_tag_output() -> None:
    with translation.override("en"):
        assert card_face("QS", "lg") == card("QS", "lg")
        assert card_face("QS", "lg") == card("QS", "lg")  # the second one from the cache
        assert HandCard("10H", legal=True).face == card("10H", "lg")
        pair = PairView("7D", "9D", targetable=False)
        assert (pair.attack_face, pair.cover_face) == (card("7D"), card("9D"))
        assert PairView("7D", None, targetable=True).cover_face == ""


def test_each_language_gets_its_own_drawing() -> None:
    with translation.override("en"):
        english = card_face("QS")
    with translation.override("ru"):
        russian = card_face("QS")
        assert russian == card("QS")
    with translation.override("en"):
        assert card_face("QS") == english
    assert english != russian
