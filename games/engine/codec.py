"""A state to JSON-ready data and back, exactly (``from_json(to_json(s))`` plays on the
same as ``s``).  Cards are written in notation so a stored snapshot stays readable."""

from __future__ import annotations

from typing import Any

from .cards import BEATERS, card_from_str, card_str, cards_of
from .result import Result
from .rules import Rules
from .state import GameState

FORMAT = 1

_INTS = (
    "dealer", "trump", "attacker", "defender", "leader", "dstart", "cap", "phase",
    "passed", "out_mask", "nactions", "redeals", "stage", "s1turn", "lead_size",
    "rnd_pos",
)
_BOOLS = ("taking", "bito_done", "opened", "joker_covered", "rnd_added")
_CARD_LISTS = ("stock", "att", "circle")
_OPT_CARDS = ("trump_card", "center", "drawn", "first_card")


def _opt(c: int) -> str | None:
    return card_str(c) if c >= 0 else None


def state_to_json(s: GameState) -> dict[str, Any]:
    d: dict[str, Any] = {"format": FORMAT, "rules": s.rules.to_dict(), "seed": s.seed}
    for k in _INTS:
        d[k] = getattr(s, k)
    for k in _BOOLS:
        d[k] = getattr(s, k)
    for k in _CARD_LISTS:
        d[k] = [card_str(c) for c in getattr(s, k)]
    for k in _OPT_CARDS:
        d[k] = _opt(getattr(s, k))
    d["cov"] = [_opt(c) for c in s.cov]
    d["hands"] = [[card_str(c) for c in cards_of(h)] for h in s.hands]
    d["discard"] = [card_str(c) for c in cards_of(s.discard)]
    d["tranks"] = s.tranks
    d["shown"] = [card_str(c) for c in cards_of(s.shown)]
    d["places"] = [list(p) for p in s.places]
    d["out_bout"] = list(s.out_bout)
    d["rnd_order"] = list(s.rnd_order)
    d["thr"] = list(s.thr)
    d["result"] = s.result_.to_dict() if s.result_ is not None else None
    return d


def _mask(cards: list[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << card_from_str(c)
    return m


def state_from_json(d: dict[str, Any]) -> GameState:
    if d.get("format") != FORMAT:
        raise ValueError(f"unknown state format {d.get('format')!r}")
    s = object.__new__(GameState)
    s.rules = Rules.from_dict(d["rules"])
    s.seed = d["seed"]
    s.n = s.rules.players
    for k in _INTS:
        setattr(s, k, int(d[k]))
    for k in _BOOLS:
        setattr(s, k, bool(d[k]))
    for k in _CARD_LISTS:
        setattr(s, k, [card_from_str(c) for c in d[k]])
    for k in _OPT_CARDS:
        setattr(s, k, card_from_str(d[k]) if d[k] is not None else -1)
    s.cov = [card_from_str(c) if c is not None else -1 for c in d["cov"]]
    s.hands = [_mask(h) for h in d["hands"]]
    s.discard = _mask(d["discard"])
    s.tranks = int(d["tranks"])
    s.shown = _mask(d["shown"])
    s.places = [list(p) for p in d["places"]]
    s.out_bout = list(d["out_bout"])
    s.rnd_order = list(d["rnd_order"])
    s.thr = tuple(d["thr"])
    s.result_ = Result.from_dict(d["result"]) if d["result"] is not None else None
    s.beaters = BEATERS[(s.trump, s.rules.joker_beats)]
    return s
