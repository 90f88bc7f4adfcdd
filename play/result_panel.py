"""The result panel of a match that is over (the ``result`` macro of the match fragments,
``templates/jinja2/games/match_fragments.html``): the places, who won and who lost (the teams by
name in a 2 vs 2), the fool, each player's rating change in the match's pool (written with the
result, ``services.turn.commit``), and the way to the replay.

It is part of the pushed fragments, so the end of a game shows it, its rating changes included,
without a reload.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.models import Match
from play.loaded import LoadedMatch
from play.ratings import ShownChange


@dataclass(frozen=True, slots=True)
class ResultPlayer:
    """One player in the panel: their place's players share it."""

    seat: int
    name: str
    is_viewer: bool
    fool: bool
    #: The fool, or a player of the losing team.
    lost: bool
    team: int | None
    change: ShownChange | None

    @property
    def team_number(self) -> int | None:
        return None if self.team is None else self.team + 1


@dataclass(frozen=True, slots=True)
class ResultPanel:
    """What the panel shows; ``ratings_pending`` while a rated match waits for its changes;
    ``unrated``, why a match of a rated table moved no rating (``docs/rules.md`` §7)."""

    places: tuple[tuple[ResultPlayer, ...], ...]
    winners: str
    losers: str
    fool: str
    draw: bool
    rated: bool
    ratings_pending: bool
    #: The viewer's own line, when they played.
    mine: ResultPlayer | None
    unrated: str = ""

    @property
    def title(self) -> str:
        return result_title(self)


def result_panel(
    loaded: LoadedMatch, names: Mapping[int, str], viewer_seat: int | None
) -> ResultPanel | None:
    """The panel of a finished match (``None`` while it runs or when it was aborted)."""
    match = loaded.match
    if match.status != Match.Status.FINISHED:
        return None
    result = match.result or {}
    teams = bool(match.rules.get("teams"))
    users = {p.seat: p.user_id for p in loaded.players}
    fool = result.get("fool")
    losing = [int(s) for s in result.get("losing_team") or ()]

    def player(seat: int) -> ResultPlayer:
        return ResultPlayer(
            seat=seat,
            name=names.get(seat, "?"),
            is_viewer=seat == viewer_seat,
            fool=seat == fool,
            lost=seat == fool or seat in losing,
            team=seat % 2 if teams else None,
            change=loaded.rating_changes.get(users.get(seat, -1)),
        )

    places = tuple(tuple(player(int(s)) for s in group) for group in result.get("places", ()))
    everyone = [p for group in places for p in group]
    winners = losers = ""
    if teams and losing:
        losers = " & ".join(names.get(s, "?") for s in losing)
        winners = " & ".join(names.get(s, "?") for s in sorted(set(users) - set(losing)))
    rated = bool(match.table.rated)
    return ResultPanel(
        places=places,
        winners=winners,
        losers=losers,
        fool="" if fool is None or result.get("draw") else names.get(int(fool), "?"),
        draw=bool(result.get("draw")),
        rated=rated,
        ratings_pending=rated and not loaded.rating_changes and not loaded.unrated,
        mine=next((p for p in everyone if p.is_viewer), None),
        unrated=unrated_note(loaded.unrated),
    )


def unrated_note(reason: str) -> str:
    """Why a match of a rated table moved no rating, in the viewer's language ("" when it did)."""
    if reason == "early":
        return _("Not rated: ended too early.")
    if reason == "repeat":
        return _("Not rated: these players have had too many rated games together lately.")
    return ""


def result_title(panel: ResultPanel) -> str:
    """The panel's heading for its viewer: a draw, the fool, the team's fate, or the end."""
    mine = panel.mine
    if panel.draw:
        return _("A draw: nobody is the fool.")
    if mine is None:
        return _("The game is over.")
    if mine.fool:
        return _("You are the fool.")
    if mine.team is not None:
        return _("Your team lost.") if mine.lost else _("Your team won.")
    return _("You are not the fool.")
