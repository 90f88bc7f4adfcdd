"""Template tags that draw cards: ``{% load cards %}``.

Why tags and not includes: every card on the game page (up to a hundred after a long bout) is one
``<svg>`` pointing into the committed sprite ``static/cards/cards.svg`` (drawn by
``tools.cardart``), so the markup stays tiny and the browser caches the art once. The tags own the
accessible name of each card, translated through gettext, so a screen reader hears "10 of hearts"
(Russian: "10 червей") and never a file name.

- ``{% card "10H" %}`` / ``{% card code "sm" %}`` — a face-up card; size ``sm``, ``md`` (default)
  or ``lg``. ``code`` is the engine notation that match views carry (``6S``, ``10H``, ``QC``,
  ``RJ``, ``BJ``); this module reads it itself so that drawing never depends on the engine.
- ``{% card_back %}`` / ``{% card_back "sm" %}`` — a face-down card.
- ``{{ code|card_label }}`` — the short text for move logs: ``10♥``, ``red joker``.
- ``{% card_text code %}`` — the same text in a ``<span class="card-text card-text--red">`` so
  logs show suits in colour.
- ``{{ code|card_name }}`` — the long accessible name: ``10 of hearts``.

Every result is remembered per active language: a match push draws the same few dozen cards for
every viewer on every move, and each drawing costs several translations, an escape pass and the
sprite's URL. The language is part of each key (the drawing is made in the language active when it
is first asked for), and a changed setting (tests) forgets everything (``games.memos``), as
Django's own translation caches do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import TYPE_CHECKING, Final, Protocol, TypeVar, cast

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext

from games.memos import in_language

if TYPE_CHECKING:
    from functools import _CacheInfo

register = template.Library()

SPRITE: Final = "cards/cards.svg"
VIEWBOX: Final = "0 0 250 350"
SIZES: Final = frozenset({"sm", "md", "lg"})
SUIT_SYMBOLS: Final = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
RANKS: Final = frozenset({"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"})
JOKERS: Final = frozenset({"RJ", "BJ"})
#: Entries per remembered result: 54 faces x 3 sizes x the site's languages, with room to spare.
MEMO_SIZE: Final = 1024

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Remembered(Protocol[T_co]):
    """A function made by ``remembered``, with its memo's ``cache_info`` (tests read the hits)."""

    def __call__(self, *args: object, **kwargs: object) -> T_co: ...

    def cache_info(self) -> _CacheInfo: ...


def remembered(func: Callable[..., T]) -> Remembered[T]:
    """``func`` remembered per active language (see the module docstring); its arguments are
    taken as text, as templates hand them over."""
    made = in_language(MEMO_SIZE)(lambda args, kwargs: func(*args, **dict(kwargs)))

    @wraps(func)
    def drawing(*args: object, **kwargs: object) -> T:
        # A push asks for a few dozen drawings: the common call, positional only, is kept short.
        named = tuple(sorted((k, str(v)) for k, v in kwargs.items())) if kwargs else ()
        return made(tuple(map(str, args)), named)

    drawing.cache_info = made.cache_info  # type: ignore[attr-defined]
    return cast("Remembered[T]", drawing)


@dataclass(frozen=True, slots=True)
class Face:
    """A parsed card code: ``rank`` is ``""`` for jokers, ``suit`` is ``R``/``B`` for jokers."""

    code: str
    rank: str
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.code in JOKERS

    @property
    def is_red(self) -> bool:
        return self.suit in "DHR"


def parse(card: str) -> Face:
    """Read a card in engine notation; raise ``ValueError`` for anything else."""
    code = str(card).strip().upper()
    if code in JOKERS:
        return Face(code, "", code[0])
    rank, suit = code[:-1], code[-1:]
    if rank not in RANKS or suit not in SUIT_SYMBOLS:
        raise ValueError(f"not a card: {card!r}")
    return Face(code, rank, suit)


def _rank_name(rank: str) -> str:
    names = {
        "J": pgettext("card rank", "jack"),
        "Q": pgettext("card rank", "queen"),
        "K": pgettext("card rank", "king"),
        "A": pgettext("card rank", "ace"),
    }
    return names.get(rank, rank)


def _suit_name(suit: str) -> str:
    """The suit as it follows "of" in a card's name (Russian needs the genitive plural)."""
    names = {
        "S": pgettext("card suit, as in 'ace of spades'", "spades"),
        "C": pgettext("card suit, as in 'ace of clubs'", "clubs"),
        "D": pgettext("card suit, as in 'ace of diamonds'", "diamonds"),
        "H": pgettext("card suit, as in 'ace of hearts'", "hearts"),
    }
    return names[suit]


def _joker_name(face: Face) -> str:
    return gettext("red joker") if face.suit == "R" else gettext("black joker")


@register.filter
@remembered
def card_name(card: str) -> str:
    """The full name a screen reader says: "10 of hearts", "queen of spades", "red joker"."""
    face = parse(card)
    if face.is_joker:
        return _joker_name(face)
    return gettext("%(rank)s of %(suit)s") % {
        "rank": _rank_name(face.rank),
        "suit": _suit_name(face.suit),
    }


@register.filter
@remembered
def card_label(card: str) -> str:
    """The short form for move logs and messages: "10♥", "Q♠", "red joker"."""
    face = parse(card)
    if face.is_joker:
        return _joker_name(face)
    return face.rank + SUIT_SYMBOLS[face.suit]


def _size_class(size: str) -> str:
    if size not in SIZES:
        raise template.TemplateSyntaxError(f"card size must be sm, md or lg, not {size!r}")
    return f"playing-card--{size}"


def _svg(symbol: str, classes: str, label: str) -> SafeString:
    return format_html(
        '<svg class="{}" viewBox="{}" role="img" aria-label="{}"><use href="{}#card-{}"></use></svg>',
        classes,
        VIEWBOX,
        label,
        static(SPRITE),
        symbol,
    )


@register.simple_tag
@remembered
def card(code: str, size: str = "md") -> SafeString:
    """A face-up card as inline SVG using the sprite, labelled for assistive technology."""
    face = parse(code)
    colour = "playing-card--red" if face.is_red else "playing-card--black"
    return _svg(face.code, f"playing-card {_size_class(size)} {colour}", card_name(face.code))


@register.simple_tag
@remembered
def card_back(size: str = "md") -> SafeString:
    """A face-down card (opponents' hands, the stock)."""
    return _svg("back", f"playing-card {_size_class(size)} playing-card--back", gettext("face-down card"))


@register.simple_tag
@remembered
def card_text(code: str) -> SafeString:
    """The short label in a coloured span for move logs, with the full name for screen readers."""
    face = parse(code)
    colour = "card-text--red" if face.is_red else "card-text--black"
    return format_html(
        '<span class="card-text {}" title="{}">{}</span>', colour, card_name(code), card_label(code)
    )
