"""Moves at a match in play: a player's action, a bot's turn, a resignation.

Each is one transaction through the turn core (``turn``): lock, check, play, commit. A refused
one raises a ``GameError`` and changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine import Action, IllegalAction, NotationError
from games.live.loaded import LoadedMatch
from games.live.services import turn
from games.live.services.errors import GameError, IllegalMove, NotYourSeat, StaleVersion
from games.models import Move
from games.words import illegal_message


def action_apply(*, match_id: int, user: User, action_text: str, expected_version: int) -> LoadedMatch:
    """Play ``action_text`` (canonical notation) for ``user``'s seat at ``expected_version``.

    Returns the match as committed, carrying the move it logged and the state it applied: the
    mover's page is drawn from it (``fragments.match_fragments``) without reading back what this
    transaction has just written. Raises ``MatchOver``, ``NotYourSeat``, ``StaleVersion`` or
    ``IllegalMove`` (with the engine's reason); then nothing has changed."""
    try:
        action = Action.parse(action_text)
    except NotationError as error:
        raise IllegalMove(
            _("That is not a move: %(reason)s.") % {"reason": error}, code="notation"
        ) from error
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        player = turn.player_in_play(loaded, user)
        if player.autopilot:
            raise NotYourSeat(_("Your seat is played by the autopilot."))
        if loaded.match.version != expected_version:
            raise StaleVersion()
        try:
            turn.play(loaded, player.seat, action, Move.By.PLAYER)
        except IllegalAction as error:
            raise IllegalMove(illegal_message(error), code=error.code) from error
        if player.timeouts:
            player.timeouts = 0
            player.save(update_fields=["timeouts"])
        turn.commit(loaded)
    return loaded


def bot_turn(*, match_id: int, version: int, seat: int) -> bool:
    """Play the bot's (or autopilot's) move for ``seat`` at ``version``.

    Returns False, doing nothing, when stale (the match moved on, is over, or does not await
    this seat), so a task delivered twice plays once."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        match = loaded.match
        if not match.is_active or match.version != version:
            return False
        if seat not in loaded.state.awaiting():
            return False
        player = next(p for p in loaded.players if p.seat == seat)
        if not turn.is_bot_seat(player):
            return False
        turn.play_bot(loaded, player)
        turn.commit(loaded)
    return True


def match_resign(*, match_id: int, user: User) -> None:
    """Resign: the seat goes on autopilot so the others can finish, and counts as the fool."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        player = turn.player_in_play(loaded, user)
        if player.resigned:
            raise GameError(_("You have already resigned."))
        turn.forfeit(loaded, player, resigned=True)
        turn.commit(loaded)
