"""A finished match's result: how it is stored, and how one seat came out of it.

``match_result`` builds the stored ``Match.result`` from the engine's result and the forfeits
(resigns and autopilot by timeouts: moved to the bottom, every seat listed in ``places``).
``seat_outcome`` reads it back as won, out, fool or draw. The same four words are the history filter, the
profile counts and the rating counts, so they are defined once, here, and
``history.selectors.outcome_q`` mirrors them as a database filter:

* **draw**: the game was drawn and the seat was still in at the end (in a team game, every seat);
* **fool**: the seat is the fool or on the losing team (a leaver counts as the fool);
* **won**: first out (in a team game: on the winning team);
* **out**: got rid of its cards, but not first.

>>> result = {"places": [[1], [0], [2]], "fool": 2, "losing_team": None, "draw": False}
>>> [seat_outcome(result, seat, teams=False) for seat in range(3)]
['out', 'won', 'fool']
>>> seat_outcome({"places": [[0, 1]], "fool": None, "losing_team": None, "draw": True}, 1, teams=False)
'draw'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from games.engine import GameState, Rules

WON: Final = "won"
OUT: Final = "out"
FOOL: Final = "fool"
DRAW: Final = "draw"
OUTCOMES: Final = (WON, OUT, FOOL, DRAW)


def place_of(result: Mapping[str, Any], seat: int) -> int:
    """The seat's place (1 = best; seats in one group share it)."""
    for index, group in enumerate(result["places"]):
        if seat in group:
            return index + 1
    raise ValueError(f"seat {seat} is not in the result")


def seat_outcome(result: Mapping[str, Any], seat: int, *, teams: bool) -> str:
    """``won``, ``out``, ``fool`` or ``draw`` for ``seat`` (see the module docstring)."""
    place = place_of(result, seat)
    if result.get("draw") and (teams or place == len(result["places"])):
        return DRAW
    if seat == result.get("fool") or seat in (result.get("losing_team") or ()):
        return FOOL
    if teams or place == 1:
        return WON
    return OUT


def match_result(*, rules: Rules, state: GameState, forfeits: list[int]) -> dict[str, Any]:
    """The stored result: the engine's, with forfeited seats (resign or autopilot by timeouts)
    moved to the bottom, the first to forfeit the fool (in teams, that seat's team loses).

    Keys: ``places`` (lists of seats, best first, shared places together, every seat listed),
    ``fool`` (seat or None), ``losing_team`` (seats or None), ``draw``, ``reason`` (the engine's,
    or ``"forfeit"``), ``forfeits`` (seats in forfeit order), ``engine`` (the engine's own
    ``Result.to_dict()`` when it finished the game, else None).
    """
    engine = state.result() if state.is_over else None
    engine_places = engine.places if engine else [list(group) for group in state.places]
    if not forfeits and engine is not None:
        places = [list(group) for group in engine.places]
        rest = _unlisted(places, state.n)
        if rest:
            places.append(rest)  # the fool, the losing team's last players, or the drawn seats
        return {
            "places": places,
            "fool": engine.fool,
            "losing_team": list(engine.losing_team) if engine.losing_team else None,
            "draw": engine.draw,
            "reason": engine.reason,
            "forfeits": [],
            "engine": engine.to_dict(),
        }
    fool = forfeits[0]
    if rules.teams:
        losing = sorted({fool, (fool + 2) % 4})
        winners = [s for s in range(4) if s not in losing]
        places = [winners, losing]
        return {
            "places": places,
            "fool": fool,
            "losing_team": losing,
            "draw": False,
            "reason": "forfeit",
            "forfeits": forfeits,
            "engine": engine.to_dict() if engine else None,
        }
    places = [[s for s in group if s not in forfeits] for group in engine_places]
    places = [group for group in places if group]
    rest = [s for s in _unlisted(places, state.n) if s not in forfeits]
    if rest:
        places.append(rest)  # still holding cards (or drawn) when the game was decided
    places.extend([s] for s in reversed(forfeits))
    return {
        "places": places,
        "fool": fool,
        "losing_team": None,
        "draw": False,
        "reason": "forfeit",
        "forfeits": forfeits,
        "engine": engine.to_dict() if engine else None,
    }


def _unlisted(places: list[list[int]], players: int) -> list[int]:
    listed = {seat for group in places for seat in group}
    return [seat for seat in range(players) if seat not in listed]
