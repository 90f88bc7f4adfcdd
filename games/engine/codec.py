"""A state to JSON-ready data and back, exactly (``decode(encode(s))`` plays on the same as
``s``): the snapshot a match row keeps.

Format 2 writes every stored field of :class:`~games.engine.data.GameData` under its own name,
by the field's ``store`` kind: cards in notation so a snapshot stays readable, seat sets as
lists of seats, the phase by name. Derived fields (the number of seats, the cover table, the
ranks on the table) are rebuilt, not stored, and the variant and stage choose the state's
class. Format 1, the first one, wrote abbreviated names (``att``,
``cov``, ``thr``, ``tranks``, ``dstart``, ``cap``...), seat sets as bitmasks and the phase as
an int; it is still read, so every stored snapshot loads.

>>> from games.engine import GameState, Rules, new_game
>>> s = new_game(Rules(), seed="codec")
>>> data = encode(s)
>>> data["format"], data["phase"], data["attack_limit"]
(2, 'lead', 5)
>>> encode(decode(data, GameState.class_for)) == data
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from .cards import CARD_NAMES, card_from_str, cards_of
from .data import STORED, GameData
from .phases import PHASE_NAMES
from .result import Result
from .rules import Rules

FORMAT: Final = 2

S = TypeVar("S", bound=GameData)


def _card(c: int) -> str | None:
    return CARD_NAMES[c] if c >= 0 else None


def _seats(mask: int) -> list[int]:
    return [t for t in range(mask.bit_length()) if mask >> t & 1]


def _mask(cards: list[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << card_from_str(c)
    return m


def _seat_mask(seats: list[int]) -> int:
    m = 0
    for t in seats:
        m |= 1 << int(t)
    return m


_ENCODE: Final[dict[str, Callable[[Any], Any]]] = {
    "rules": lambda r: r.to_dict(),
    "text": str,
    "int": int,
    "bool": bool,
    "phase": lambda p: PHASE_NAMES[p],
    "card": _card,
    "cards": lambda cs: [CARD_NAMES[c] for c in cs],
    "covers": lambda cs: [_card(c) for c in cs],
    "mask": lambda m: [CARD_NAMES[c] for c in cards_of(m)],
    "hands": lambda hs: [[CARD_NAMES[c] for c in cards_of(h)] for h in hs],
    "seats": list,
    "seat_mask": _seats,
    "places": lambda ps: [list(p) for p in ps],
    "result": lambda r: None if r is None else r.to_dict(),
}

_DECODE: Final[dict[str, Callable[[Any], Any]]] = {
    "rules": Rules.from_dict,
    "text": str,
    "int": int,
    "bool": bool,
    "phase": PHASE_NAMES.index,
    "card": lambda c: -1 if c is None else card_from_str(c),
    "cards": lambda cs: [card_from_str(c) for c in cs],
    "covers": lambda cs: [-1 if c is None else card_from_str(c) for c in cs],
    "mask": _mask,
    "hands": lambda hs: [_mask(h) for h in hs],
    "seats": lambda ts: tuple(int(t) for t in ts),
    "seat_mask": _seat_mask,
    "places": lambda ps: [[int(t) for t in p] for p in ps],
    "result": lambda r: None if r is None else Result.from_dict(r),
}

#: Format 1: each key with the field it holds and how it was written (``tranks``, the ranks
#: on the table, was stored and is now derived).
_FORMAT_1: Final = {
    "rules": ("rules", "rules"),
    "seed": ("seed", "text"),
    "dealer": ("dealer", "int"),
    "trump": ("trump_suit", "int"),
    "attacker": ("attacker", "int"),
    "defender": ("defender", "int"),
    "leader": ("leader", "int"),
    "dstart": ("defender_start", "int"),
    "cap": ("attack_limit", "int"),
    "phase": ("phase", "int"),
    "passed": ("passed", "int"),
    "out_mask": ("out_mask", "int"),
    "nactions": ("actions_played", "int"),
    "redeals": ("redeals", "int"),
    "stage": ("stage", "int"),
    "s1turn": ("stage1_turn", "int"),
    "lead_size": ("lead_size", "int"),
    "rnd_pos": ("round_position", "int"),
    "taking": ("taking", "bool"),
    "bito_done": ("bito_done", "bool"),
    "opened": ("opened", "bool"),
    "joker_covered": ("joker_covered", "bool"),
    "rnd_added": ("round_added", "bool"),
    "stock": ("stock", "cards"),
    "att": ("attack_cards", "cards"),
    "circle": ("circle", "cards"),
    "trump_card": ("trump_card", "card"),
    "center": ("center", "card"),
    "drawn": ("drawn", "card"),
    "first_card": ("opening_trump", "card"),
    "cov": ("covers", "covers"),
    "hands": ("hands", "hands"),
    "discard": ("discard", "mask"),
    "shown": ("shown", "mask"),
    "places": ("places", "places"),
    "out_bout": ("out_this_bout", "seats"),
    "rnd_order": ("round_order", "seats"),
    "thr": ("throwers", "seats"),
    "result": ("game_result", "result"),
}


def encode(s: GameData) -> dict[str, Any]:
    """The state in format 2."""
    data: dict[str, Any] = {"format": FORMAT}
    for name, key, kind in STORED:
        data[key] = _ENCODE[kind](getattr(s, name))
    return data


def decode(data: Mapping[str, Any], class_for: Callable[[Rules, int], type[S]]) -> S:
    """The state ``data`` holds (format 1 or 2), of the class ``class_for(rules, stage)``."""
    version = data.get("format")
    if version == FORMAT:
        keys = [(key, name, kind) for name, key, kind in STORED]
    elif version == 1:
        keys = [(key, name, kind) for key, (name, kind) in _FORMAT_1.items()]
    else:
        raise ValueError(f"unknown state format {version!r}")
    values = {name: _DECODE[kind](data[key]) for key, name, kind in keys}
    return class_for(values["rules"], values["stage"])(**values)
