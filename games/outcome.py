"""How one seat came out of a finished match: won, out, fool or draw.

Read from the stored ``Match.result`` (``games.services.match_result``: forfeits already moved to
the bottom, every seat listed in ``places``). The same four words are the history filter, the
profile counts and the rating counts, so they are defined once, here, and
``games.history.outcome_q`` mirrors them as a database filter:

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
