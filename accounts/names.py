"""Display names nobody can mistake for another: normalised, visible, and compared by skeleton.

Three rules, all pure functions (the forms, the model and a migration use them):

* **Normalised.** NFC, every run of spaces (any Unicode space separator, ``Zs``) one plain
  space, none at either end: "Olga  Petrova" and "Olga Petrova" are one name. Tabs, line breaks
  and other controls are not spaces but refused (below).
* **Visible.** No character that draws nothing or changes how others draw: format characters
  (``Cf``: zero-width spaces and joiners, direction marks), controls (``Cc``), line and paragraph
  separators (``Zl``, ``Zp``), surrogates, private-use and unassigned code points, and the
  letters and marks that render as blank (Hangul fillers, the Braille blank, variation
  selectors, the combining grapheme joiner...).
* **Not confusable.** Two names whose *skeletons* are equal look alike, and the second is
  refused; the skeleton is stored (``User.display_name_key``) under a unique index, so two
  concurrent signups cannot both get through. The skeleton follows Unicode's confusable
  detection (UTS #39): each character goes to the prototype of its confusable class (Cyrillic
  "а" and Latin "a" alike, "I", "l" and "1" alike, "m" as "rn"), with compatibility forms
  decomposed (NFKD: "𝐚" and "ａ" are "a") and case folded, since names already differ only if they
  differ in more than case. The classes come from Unicode's ``confusables.txt`` as the
  confusable-homoglyphs package ships it. A skeleton also leaves out spaces and punctuation
  ("P l a y e r 01", "Player-01" and "Player01" are one name) and reads a digit of any script as
  that digit ("Bot Easy २", "Bot Easy ٢" and "Bot Easy ၂" are all "Bot Easy 2"): what people read
  matters, not the code points. Since a skeleton keeps a little case ("I" is "l"),
  a name is also compared by what it looks like in capitals (``capitals_skeleton``, stored as
  ``User.display_name_capitals_key`` under a unique index too), which every case of a name
  shares.

>>> normalise("  Olga \\u00a0 Petrova ")
'Olga Petrova'
>>> skeleton("Vasya") == skeleton("Vаsуa")  # Cyrillic а and у
True
>>> skeleton("alice") == skeleton("aIice") == skeleton("ALICE".lower())
True
>>> skeleton("Olga") == skeleton("Oleg")
False
>>> skeleton("P l a y e r 01") == skeleton("Player 01") == skeleton("Player ٠١")
True
>>> invisible_characters("Va\\u200bsya")
['U+200B']
"""

from __future__ import annotations

import unicodedata
from functools import cache

#: Categories of characters that draw nothing or only steer how other characters are drawn.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp"})

#: Letters, marks and symbols that render as blank space or nothing at all, outside those
#: categories (so ``\\w`` would let the letters among them through).
BLANK_CHARACTERS = frozenset(
    {
        0x034F,  # COMBINING GRAPHEME JOINER
        0x115F,
        0x1160,  # HANGUL CHOSEONG / JUNGSEONG FILLER
        0x17B4,
        0x17B5,  # KHMER VOWEL INHERENT AQ / AA
        0x180B,
        0x180C,
        0x180D,
        0x180E,
        0x180F,  # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
        0x2800,  # BRAILLE PATTERN BLANK
        0x3164,  # HANGUL FILLER
        0xFFA0,  # HALFWIDTH HANGUL FILLER
        0x1D159,
        0x1D173,
        0x1D174,
        0x1D175,
        0x1D176,
        0x1D177,
        0x1D178,
        0x1D179,
        0x1D17A,  # musical
    }
    | set(range(0xFE00, 0xFE10))  # VARIATION SELECTORS 1-16
    | set(range(0xE0100, 0xE01F0))  # VARIATION SELECTORS 17-256
)

#: Unicode's left-to-right mark, which confusable-homoglyphs wraps right-to-left entries in.
_LRM = "\u200e"


def normalise(name: str) -> str:
    """NFC, with every run of space separators (``Zs``) made one space and the ends trimmed."""
    text = unicodedata.normalize("NFC", name)
    spaced = "".join(" " if unicodedata.category(char) == "Zs" else char for char in text)
    return " ".join(part for part in spaced.split(" ") if part)


def invisible_characters(name: str) -> list[str]:
    """The characters of ``name`` that draw nothing (see the module docstring), as ``U+XXXX``."""
    return [
        f"U+{ord(char):04X}"
        for char in name
        if unicodedata.category(char) in INVISIBLE_CATEGORIES or ord(char) in BLANK_CHARACTERS
    ]


@cache
def _prototypes() -> dict[str, str]:
    """Character -> what it looks like, for every character of a confusable class.

    ``confusables.txt`` maps each confusable character to a prototype; the package lists the
    pairs both ways, so each class is a star around its prototype, rebuilt here with union-find
    over the one-character pairs. A class of one-character members goes to a single member
    (the first ASCII one, else the lowest); a character whose prototype is a sequence ("m" is
    "rn") goes to that sequence, itself mapped character by character.
    """
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(char: str) -> str:
        parent.setdefault(char, char)
        while parent[char] != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    def order(char: str) -> tuple[bool, int]:
        return (not char.isascii(), ord(char))

    sequences: dict[str, str] = {}
    for key, entries in confusables_data.items():
        a = key.replace(_LRM, "")
        for entry in entries:
            b = str(entry["c"]).replace(_LRM, "")
            if len(a) == 1 and len(b) == 1:
                root_a, root_b = find(a), find(b)
                if root_a != root_b:
                    low, high = sorted((root_a, root_b), key=order)
                    parent[high] = low
            elif len(a) == 1 and len(b) > 1:
                sequences[a] = b
            elif len(b) == 1 and len(a) > 1:
                sequences[b] = a
    mapping = {char: find(char) for char in parent if find(char) != char}
    for char, sequence in sequences.items():
        mapping[char] = "".join(mapping.get(c, c) for c in sequence)
    return mapping


def _map(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(char, char) for char in text)


def _plain(text: str) -> str:
    """``text`` without spaces and punctuation (categories ``Z*`` and ``P*``), every decimal digit
    of any script as its ASCII digit (``Nd``: "२", "٢", "۲" and "၂" are "2")."""
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category[0] in "ZP":
            continue
        kept.append(str(unicodedata.decimal(char)) if category == "Nd" else char)
    return "".join(kept)


def skeleton(name: str) -> str:
    """What ``name`` looks like, case aside: equal skeletons mean names people would confuse.

    Spaces and punctuation are left out before and after each mapping, since a look-alike can
    stand for either ("⑵" decomposes to "(2)", "‐" looks like "-")."""
    text = _plain(_map(_plain(unicodedata.normalize("NFKD", normalise(name)))))
    text = _plain(_map(_plain(unicodedata.normalize("NFKD", text.casefold()))))
    return unicodedata.normalize("NFD", text)


def capitals_skeleton(name: str) -> str:
    """What ``name`` looks like written in capitals.

    A skeleton keeps some case ("I" looks like "l", "i" does not), so one that differs from a
    taken name in case and in a look-alike letter at once has a skeleton of its own: "ІVAN" with a
    Cyrillic "І" looks exactly like "IVAN", which is "ivan" in another case, yet neither the
    skeleton nor the case-blind comparison tells it from "ivan". In capitals every case of a name
    is the same, so their skeletons meet.

    >>> capitals_skeleton("ivan") == capitals_skeleton("\u0406VAN") != skeleton("ivan")
    True
    """
    return skeleton(normalise(name).upper())


@cache
def _digit_skeletons() -> frozenset[str]:
    return frozenset(skeleton(digit) for digit in "0123456789")


def is_numbered(key: str, base: str) -> bool:
    """Whether the skeleton ``key`` is the skeleton ``base`` itself or ``base`` and a number."""
    if not key.startswith(base):
        return False
    rest = key[len(base) :]
    return all(char in _digit_skeletons() for char in rest)
