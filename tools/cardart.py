"""Draw the club's playing cards as one SVG sprite: ``python -m tools.cardart``.

Why a generator instead of hand-made files: the 54 faces and the back share one geometry (a
250 x 350 viewBox, poker proportions), one set of suit outlines and one pip layout, so they are
computed here and written to ``static/cards/cards.svg``. The output is committed, so serving the
site needs no build step; run this module again only after changing the art.

The sprite holds one ``<symbol id="card-10H">`` per face (notation of ``games.engine``: rank then
suit letter, jokers ``RJ``/``BJ``) and ``card-back``; pages draw a card with
``<svg viewBox="0 0 250 350"><use href="…/cards.svg#card-10H"/></svg>`` through the ``cards``
template tags. Every shape is a plain path or text with its own fill (no gradients, patterns,
clip paths or nested ``<use>``), because those are the parts browsers handle unevenly inside an
externally referenced symbol.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Final

WIDTH: Final = 250
HEIGHT: Final = 350
VIEWBOX: Final = f"0 0 {WIDTH} {HEIGHT}"

RED: Final = "#c3252f"
BLACK: Final = "#1d2129"
PAPER: Final = "#fdfcf8"
EDGE: Final = "#c9c6bd"
BACK: Final = "#8d2b3b"
BACK_LINE: Final = "#b9596a"
GOLD: Final = "#e9c98b"
COURT_TINT: Final = {"red": "#fbeeee", "black": "#eef0f4"}
JOKER_TINT: Final = "#fbf4e0"

SANS: Final = "'Liberation Sans', Arial, 'Helvetica Neue', Helvetica, sans-serif"
SERIF: Final = "'DejaVu Serif', Georgia, 'Times New Roman', serif"

SUITS: Final = "SCDH"
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

# Suit outlines in a 100 x 100 box, centred on (50, 50).
SUIT_PATHS: Final = {
    "H": (
        "M50 92C34 76 4 56 4 30C4 14 16 5 29 5C39 5 47 11 50 21C53 11 61 5 71 5"
        "C84 5 96 14 96 30C96 56 66 76 50 92Z"
    ),
    "D": "M50 3C62 21 74 36 88 50C74 64 62 79 50 97C38 79 26 64 12 50C26 36 38 21 50 3Z",
    "S": (
        "M50 3C64 21 95 38 95 62C95 77 84 86 72 86C63 86 57 82 53 75C54 85 58 92 66 97H34"
        "C42 92 46 85 47 75C43 82 37 86 28 86C16 86 5 77 5 62C5 38 36 21 50 3Z"
    ),
    "C": (
        "M50 4A21 21 0 0 1 67 37A21 21 0 1 1 55 73C56 84 60 91 67 97H33C40 91 44 84 45 73"
        "A21 21 0 1 1 33 37A21 21 0 0 1 50 4Z"
    ),
}
STAR_PATH: Final = (
    " ".join(
        f"{'M' if i == 0 else 'L'}{50 + r * math.sin(i * math.pi / 5):.1f} "
        f"{54 - r * math.cos(i * math.pi / 5):.1f}"
        for i, r in enumerate([46, 19] * 5)
    )
    + "Z"
)

# Pip centres as (column, row): columns 0/1/2 = left/middle/right, rows 0..1 top to bottom.
PIP_LAYOUT: Final[dict[str, tuple[tuple[int, float], ...]]] = {
    "2": ((1, 0), (1, 1)),
    "3": ((1, 0), (1, 0.5), (1, 1)),
    "4": ((0, 0), (2, 0), (0, 1), (2, 1)),
    "5": ((0, 0), (2, 0), (1, 0.5), (0, 1), (2, 1)),
    "6": ((0, 0), (2, 0), (0, 0.5), (2, 0.5), (0, 1), (2, 1)),
    "7": ((0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (0, 1), (2, 1)),
    "8": ((0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (1, 0.75), (0, 1), (2, 1)),
    "9": ((0, 0), (2, 0), (0, 1 / 3), (2, 1 / 3), (1, 0.5), (0, 2 / 3), (2, 2 / 3), (0, 1), (2, 1)),
    "10": (
        (0, 0),
        (2, 0),
        (1, 1 / 6),
        (0, 1 / 3),
        (2, 1 / 3),
        (0, 2 / 3),
        (2, 2 / 3),
        (1, 5 / 6),
        (0, 1),
        (2, 1),
    ),
}
PIP_COLUMNS: Final = (82.0, 125.0, 168.0)
PIP_TOP: Final = 74.0
PIP_BOTTOM: Final = 276.0
PIP_SIZE: Final = 44.0
# J and Q descend below the baseline in most serif faces: lift them clear of the lower suit.
COURT_BASELINE: Final = {"J": 202, "Q": 208, "K": 216}
PIP_SIZE_DENSE: Final = 38.0  # 9 and 10: rows sit closer


def suit_colour(suit: str) -> str:
    return RED if suit in "DH" else BLACK


def suit_shape(suit: str, cx: float, cy: float, size: float, *, flip: bool = False) -> str:
    """The suit outline scaled to ``size`` and centred on (cx, cy), upside down when ``flip``."""
    scale = size / 100
    place = f"translate({cx - 50 * scale:g} {cy - 50 * scale:g}) scale({scale:g})"
    if flip:
        place = f"rotate(180 {cx:g} {cy:g}) {place}"
    return f'<path transform="{place}" d="{SUIT_PATHS[suit]}" fill="{suit_colour(suit)}"/>'


def blank(fill: str = PAPER) -> str:
    return (
        f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="16"'
        f' fill="{fill}" stroke="{EDGE}" stroke-width="3"/>'
    )


def corner(rank_text: str, suit: str, colour: str) -> str:
    """Index in the top-left corner and its half-turn copy bottom-right."""
    size, fit = (60, "") if len(rank_text) == 1 else (54, ' textLength="56" lengthAdjust="spacingAndGlyphs"')
    index = (
        f'<text x="33" y="62" font-family="{SANS}" font-size="{size}" font-weight="700"'
        f' text-anchor="middle" fill="{colour}"{fit}>{rank_text}</text>' + suit_shape(suit, 33, 91, 38)
    )
    return f'<g>{index}</g><g transform="rotate(180 {WIDTH / 2:g} {HEIGHT / 2:g})">{index}</g>'


def pips(rank: str, suit: str) -> Iterator[str]:
    size = PIP_SIZE if len(PIP_LAYOUT[rank]) < 9 else PIP_SIZE_DENSE
    for column, row in PIP_LAYOUT[rank]:
        y = PIP_TOP + row * (PIP_BOTTOM - PIP_TOP)
        yield suit_shape(suit, PIP_COLUMNS[column], y, size, flip=row > 0.5)


def court(rank: str, suit: str) -> Iterator[str]:
    """A court card: a tinted frame, the rank letter large, a suit above and below."""
    colour = suit_colour(suit)
    tint = COURT_TINT["red" if suit in "DH" else "black"]
    yield (
        f'<rect x="62" y="40" width="126" height="270" rx="10" fill="{tint}"'
        f' stroke="{colour}" stroke-opacity="0.55" stroke-width="2.5"/>'
    )
    yield suit_shape(suit, 125, 78, 48)
    yield (
        f'<text x="125" y="{COURT_BASELINE[rank]}" font-family="{SERIF}" font-size="118"'
        f' font-weight="700" text-anchor="middle" fill="{colour}">{rank}</text>'
    )
    yield suit_shape(suit, 125, 272, 48, flip=True)


def face(rank: str, suit: str) -> str:
    colour = suit_colour(suit)
    parts = [blank(), corner(rank, suit, colour)]
    if rank == "A":
        parts.append(suit_shape(suit, 125, 175, 118))
    elif rank in "JQK":
        parts.extend(court(rank, suit))
    else:
        parts.extend(pips(rank, suit))
    return "".join(parts)


def star(cx: float, cy: float, size: float, colour: str) -> str:
    scale = size / 100
    return (
        f'<path transform="translate({cx - 50 * scale:g} {cy - 54 * scale:g}) scale({scale:g})"'
        f' d="{STAR_PATH}" fill="{colour}"/>'
    )


def joker(colour: str) -> str:
    """A joker: gold-tinted frame, a big star and JOKER spelled out, stars in the corners."""
    letters = "".join(
        f'<text x="31" y="{48 + i * 25}" font-family="{SANS}" font-size="26" font-weight="700"'
        f' text-anchor="middle" fill="{colour}">{letter}</text>'
        for i, letter in enumerate("JOKER")
    )
    index = letters + star(31, 180, 32, colour)
    return "".join(
        [
            blank(),
            f"<g>{index}</g>",
            f'<g transform="rotate(180 {WIDTH / 2:g} {HEIGHT / 2:g})">{index}</g>',
            f'<rect x="62" y="40" width="126" height="270" rx="10" fill="{JOKER_TINT}"'
            f' stroke="{colour}" stroke-opacity="0.55" stroke-width="2.5"/>',
            star(125, 150, 104, colour),
            f'<text x="125" y="262" font-family="{SERIF}" font-size="27" font-weight="700"'
            f' text-anchor="middle" letter-spacing="2" fill="{colour}">JOKER</text>',
        ]
    )


def back() -> str:
    """The back: a white border, a burgundy field with a fine diamond lattice, a gold emblem."""
    step = 20
    x0, y0, x1, y1 = 16, 16, WIDTH - 16, HEIGHT - 16
    lattice = "".join(
        f"M{x:g} {y - 7:g}L{x + 7:g} {y:g}L{x:g} {y + 7:g}L{x - 7:g} {y:g}Z"
        for y in range(y0 + 12, y1 - 6, step)
        for x in range(x0 + 12 + (step // 2 if (y - y0) // step % 2 else 0), x1 - 6, step)
    )
    return "".join(
        [
            blank(),
            f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="9" fill="{BACK}"/>',
            f'<path d="{lattice}" fill="none" stroke="{BACK_LINE}" stroke-width="1.6"/>',
            f'<rect x="{x0 + 7}" y="{y0 + 7}" width="{x1 - x0 - 14}" height="{y1 - y0 - 14}"'
            f' rx="6" fill="none" stroke="{GOLD}" stroke-width="2"/>',
            f'<circle cx="125" cy="175" r="40" fill="{BACK}" stroke="{GOLD}" stroke-width="3"/>',
            f'<path transform="translate(101 151) scale(0.48)" d="{SUIT_PATHS["D"]}" fill="{GOLD}"/>',
        ]
    )


def card_codes() -> list[str]:
    """All 54 face codes in engine order (2S 2C 2D 2H … AH, then RJ, BJ)."""
    return [rank + suit for rank in RANKS for suit in SUITS] + ["RJ", "BJ"]


def symbols() -> Iterator[tuple[str, str]]:
    for rank in RANKS:
        for suit in SUITS:
            yield rank + suit, face(rank, suit)
    yield "RJ", joker(RED)
    yield "BJ", joker(BLACK)
    yield "back", back()


def sprite() -> str:
    body = "\n".join(
        f'<symbol id="card-{code}" viewBox="{VIEWBOX}">{art}</symbol>' for code, art in symbols()
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg">\n'
        "<!-- Generated by `python -m tools.cardart`; edit the generator, not this file. -->\n"
        f"{body}\n</svg>\n"
    )


def main(argv: list[str] | None = None) -> None:
    default = Path(__file__).resolve().parent.parent / "static" / "cards" / "cards.svg"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=default, help=f"default: {default}")
    out = parser.parse_args(argv).out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(sprite(), encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB, {len(card_codes()) + 1} symbols)")


if __name__ == "__main__":
    main()
