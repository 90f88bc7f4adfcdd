"""The ``cards`` template tags: every card draws from the sprite and has a spoken name.

Why these tests: a card without an accessible name is invisible to a screen-reader player, and a
symbol missing from the committed sprite shows as an empty box with no error anywhere, so both are
checked for all 54 faces and the back.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template, TemplateSyntaxError
from django.template.loader import render_to_string
from django.utils import translation

from games.templatetags.cards import card_label, card_name, parse
from tools.cardart import card_codes, sprite

SPRITE = Path(settings.BASE_DIR) / "static" / "cards" / "cards.svg"


def render(source: str, **context: object) -> str:
    return Template("{% load cards %}" + source).render(Context(context))


def test_card_renders_svg_use_with_label_size_and_colour() -> None:
    html = render('{% card "10H" %}')
    assert html.startswith(
        '<svg class="playing-card playing-card--md playing-card--red" viewBox="0 0 250 350"'
    )
    assert 'role="img" aria-label="10 of hearts"' in html
    assert re.search(r'<use href="/static/cards/cards\.svg#card-10H"></use></svg>$', html)


@pytest.mark.parametrize("size", ["sm", "md", "lg"])
def test_card_size_argument(size: str) -> None:
    assert f"playing-card--{size}" in render("{% card code size %}", code="QS", size=size)


def test_unknown_size_is_refused() -> None:
    with pytest.raises(TemplateSyntaxError):
        render('{% card "QS" "xl" %}')


def test_card_back() -> None:
    html = render('{% card_back "sm" %}')
    assert 'class="playing-card playing-card--sm playing-card--back"' in html
    assert 'aria-label="face-down card"' in html
    assert "#card-back" in html


@pytest.mark.parametrize("code", [*card_codes(), "back"])
def test_every_card_is_labelled_and_in_the_sprite(code: str) -> None:
    html = render("{% card_back %}") if code == "back" else render("{% card c %}", c=code)
    label = re.search(r'aria-label="([^"]+)"', html)
    assert label and label.group(1).strip()
    assert f'<symbol id="card-{code}" ' in SPRITE.read_text(encoding="utf-8")


def test_labels_are_unique() -> None:
    names = [card_name(code) for code in card_codes()]
    assert len(set(names)) == len(names) == 54


@pytest.mark.parametrize(
    ("code", "name", "short"),
    [
        ("6S", "6 of spades", "6♠"),
        ("10H", "10 of hearts", "10♥"),
        ("JD", "jack of diamonds", "J♦"),
        ("QC", "queen of clubs", "Q♣"),
        ("KH", "king of hearts", "K♥"),
        ("AD", "ace of diamonds", "A♦"),
        ("RJ", "red joker", "red joker"),
        ("BJ", "black joker", "black joker"),
    ],
)
def test_names_and_short_labels(code: str, name: str, short: str) -> None:
    assert card_name(code) == name
    assert card_label(code) == short
    assert render("{{ c|card_label }}", c=code) == short


def test_jokers_are_not_jacks() -> None:
    assert parse("RJ").is_joker and parse("BJ").is_joker
    assert not parse("JH").is_joker
    assert "playing-card--red" in render('{% card "RJ" %}')
    assert "playing-card--black" in render('{% card "BJ" %}')


def test_card_text_colours_the_suit() -> None:
    html = render('{% card_text "7D" %} {% card_text "7S" %}')
    assert '<span class="card-text card-text--red" title="7 of diamonds">7♦</span>' in html
    assert '<span class="card-text card-text--black" title="7 of spades">7♠</span>' in html


@pytest.mark.parametrize("bad", ["", "1H", "11S", "JX", "JJ", "10", "<b>"])
def test_bad_codes_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse(bad)


def test_committed_sprite_matches_the_generator() -> None:
    """Run ``python -m tools.cardart`` after changing the art, and commit its output."""
    assert SPRITE.read_text(encoding="utf-8") == sprite()


@pytest.mark.parametrize(
    ("code", "russian"),
    [
        ("10H", "10 червей"),
        ("6S", "6 пик"),
        ("QD", "дама бубён"),
        ("KC", "король треф"),
        ("AS", "туз пик"),
        ("JH", "валет червей"),
        ("RJ", "красный джокер"),
    ],
)
def test_russian_names(code: str, russian: str) -> None:
    with translation.override("ru"):
        assert card_name(code) == russian
        assert f'aria-label="{russian}"' in render("{% card c %}", c=code)


def test_russian_back_and_short_label() -> None:
    with translation.override("ru"):
        assert 'aria-label="карта рубашкой вверх"' in render("{% card_back %}")
        assert card_label("QD") == "Q♦"


def test_demo_table_renders_with_every_card_labelled() -> None:
    html = render_to_string("games/_card_demo.html", {"deck": card_codes()})
    svgs = re.findall(r"<svg [^>]*>", html)
    assert len(svgs) > 54 + 20
    assert all(re.search(r'aria-label="[^"]+"', svg) for svg in svgs)
    assert 'style="' not in html.split("</head>")[1], "the site's CSP forbids inline styles"
