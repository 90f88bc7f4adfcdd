"""Moves at a match in play: a player's action, a bot's turn, a resignation, halving one's own timer.

Each is one transaction through the turn core (``turn``): lock, check, play, commit. A refused
one raises a ``GameError`` and changes nothing.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine import Action, IllegalAction, NotationError
from games.live import broadcast
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
    """Play the bot's (or autopilot's) move for ``seat`` at ``version``, or the forced move of
    any seat (``turn.forced_action``: a deal that starts with one).

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
        forced = turn.forced_action(loaded.state, seat)
        if forced is not None:
            turn.play(loaded, seat, forced, Move.By.FORCED)
        elif turn.is_bot_seat(player):
            turn.play_bot(loaded, player)
        else:
            return False
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


def match_halve_timer(*, match_id: int, user: User) -> int:
    """Halve ``user``'s own turn timer for the rest of the match, once, before their first move;
    returns the new seconds. Live play only keeps the shorter timer: what it is worth is decided
    above (an arena's berserk). The turn in progress is cut at once when the seat is the one the
    game awaits; a seat never has less time because another one halved theirs
    (``turn.turn_seconds_now``)."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        player = turn.player_in_play(loaded, user)
        if player.autopilot:
            raise NotYourSeat(_("Your seat is played by the autopilot."))
        if player.turn_seconds is not None:
            raise GameError(_("You have already halved your timer."))
        match = loaded.match
        if match.moves.filter(seat=player.seat).exists():
            raise GameError(_("Your timer can be halved only before your first move."))
        player.turn_seconds = max(turn.MIN_TURN_SECONDS, match.table.turn_seconds // 2)
        player.save(update_fields=["turn_seconds"])
        cut = timezone.now() + timedelta(seconds=turn.turn_seconds_now(match, loaded.state, loaded.players))
        if match.deadline_at is None or cut < match.deadline_at:
            match.deadline_at = cut
        match.version += 1  # the pages show the shorter timer; bot turns are armed again for it
        turn.arm(match, loaded.state, loaded.players)
        match.save(update_fields=["version", "deadline_at", "timer_at"])
        broadcast.match_changed(match)
    return int(player.turn_seconds)
