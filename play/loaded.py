"""One loaded match: what every page, push and move of live play reads a match as.

Why one type (lila's ``GameProxy``: every handler reads the game through one door): the match
page, a socket's push, the POST fallback of a move and the services that lock a match all want
the same things, the match row with its table, its players with their users, some of its move
log and the engine state, and each of them used to get them in its own way. A ``LoadedMatch``
is built by ``selectors.match_load`` (plain SQL, two statements; a third for a match that is
over) or, under the match's lock, by ``services.turn.match_lock``; a successful move returns the
one it played on, so the mover's page is drawn from what the move committed without reading it
back. The presenter takes it and reads nothing else.

``moves`` are the lines of the log after ``moves_after``, in order: the whole log from
``moves_after == 0``, the lines a socket has not sent yet from its last one, or, for a move's
result, the moves that change logged. The engine state is decoded from the snapshot the first
time it is asked for, once; a move hands over the state it has just applied instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.engine import GameState
from games.models import Match, MatchPlayer, Move
from play.ratings import ShownChange


@dataclass(slots=True)
class LoadedMatch:
    """A match as live play reads it (see the module docstring)."""

    #: The row, with ``match.table`` loaded.
    match: Match
    #: Its players in seat order, each with ``player.user`` loaded.
    players: list[MatchPlayer]
    #: The log lines with ``seq > moves_after``, in order (as many as there were when read).
    moves: list[Move]
    moves_after: int
    #: The match dealt after this one at its table ("play again"), if any; ``None`` while in play.
    next_match_id: int | None = None
    #: User id -> what the match did to their rating (a finished rated match, once rated).
    rating_changes: dict[int, ShownChange] = field(default_factory=dict)
    #: Why a finished match of a rated table moved no rating (``"early"``, ``"repeat"``), or "".
    unrated: str = ""
    _state: GameState | None = field(default=None, repr=False)

    @property
    def state(self) -> GameState:
        """The engine state of the match (server side only: the presenter asks it for views)."""
        if self._state is None:
            self._state = GameState.from_json(self.match.snapshot)
        return self._state

    @property
    def version(self) -> int:
        return int(self.match.version)

    @property
    def finished(self) -> bool:
        """Whether the match is over (finished or aborted)."""
        return not self.match.is_active

    @property
    def move(self) -> Move:
        """The last move it carries: for a move's result, the move played."""
        if not self.moves:
            raise LookupError("this loaded match carries no move")
        return self.moves[-1]

    @property
    def events(self) -> list[dict[str, Any]]:
        """The public events of the moves it carries, in order."""
        return [event for move in self.moves for event in move.events]

    def player_of(self, user: User | AnonymousUser) -> MatchPlayer | None:
        """``user``'s player, or ``None`` for a spectator, an anonymous visitor or a stranger."""
        if not user.is_authenticated:
            return None
        return next((p for p in self.players if p.user_id == user.pk), None)

    def seat_of(self, user: User | AnonymousUser) -> int | None:
        """The seat ``user`` plays, or ``None``."""
        player = self.player_of(user)
        return None if player is None else int(player.seat)
