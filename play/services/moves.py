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
from games.models import MatchPlayer, Move
from games.words import illegal_message
from play import broadcast, selectors
from play.loaded import LoadedMatch
from play.services import playban, turn
from play.services.errors import GameError, IllegalMove, NotYourSeat, StaleVersion


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

    The bot searches on the match as committed, read without its lock, and its move is then
    applied under the lock at the version it searched: a search takes up to a few hundred
    milliseconds, and while it runs the other seats' throw-ins, takes and timers must not wait
    for the match row. When the match moved on meanwhile, the move is dropped: the change that
    moved it armed the bot turns of its own version (``turn.commit``, ``match_halve_timer``).

    Returns False, doing nothing, when stale (the match moved on, is over, or does not await
    this seat), so a task delivered twice plays once."""
    loaded = selectors.match_load(match_id=match_id, moves_after=None)
    if loaded is None or _awaited(loaded, version, seat) is None:
        return False
    forced = turn.forced_action(loaded.state, seat)
    if forced is not None:
        action, by = forced, Move.By.FORCED
    else:
        player = _awaited_bot(loaded, version, seat)
        if player is None:
            return False
        action, by = turn.bot_action(loaded, player)
    with transaction.atomic():
        locked = turn.match_lock(match_id)
        if _awaited(locked, version, seat) is None:
            return False
        # The same version is the same state, so the searched (or forced) move is as legal here.
        turn.play(locked, seat, action, by)
        turn.commit(locked)
    return True


def _awaited(loaded: LoadedMatch, version: int, seat: int) -> MatchPlayer | None:
    """The player of ``seat`` when the match is in play at ``version`` and awaits that seat."""
    match = loaded.match
    if not match.is_active or match.version != version or seat not in loaded.state.awaiting():
        return None
    return next((p for p in loaded.players if p.seat == seat), None)


def _awaited_bot(loaded: LoadedMatch, version: int, seat: int) -> MatchPlayer | None:
    """The player of ``seat`` when the match awaits it at ``version`` and a bot (or the autopilot)
    plays it; else ``None``."""
    player = _awaited(loaded, version, seat)
    return player if player is not None and turn.is_bot_seat(player) else None


def match_resign(*, match_id: int, user: User) -> None:
    """Resign: the seat goes on autopilot so the others can finish, and counts as the fool.

    Resigning a rated game too early (``games.early``) goes into the deal-fishing ledger
    (``playban``)."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        player = turn.player_in_play(loaded, user)
        if player.resigned:
            raise GameError(_("You have already resigned."))
        playban.early_quit_note(loaded=loaded, player=player)
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
        match.version += 1  # the pages show the shorter timer; bot turns are sent again for it
        turn.send_bot_turns(match, loaded.state, loaded.players)
        match.save(update_fields=["version", "deadline_at"])
        broadcast.match_changed(match)
    return int(player.turn_seconds)
