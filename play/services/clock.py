"""Time at a match in play: beat's clock playing the deadlines that ran out, timeouts, and the
bot turns sent again after a restart (``turn`` says how a deadline is set).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from durak_site import heartbeat, metrics
from durak_site.tasks import LOST_DATABASE
from games.engine import Action
from games.models import MatchPlayer, Move
from play import selectors
from play.loaded import LoadedMatch
from play.services import playban, turn

logger = logging.getLogger(__name__)

#: What the engine awaits from a seat that only the seat's owner can decide; a timeout on these
#: counts towards autopilot. A thrower's pending pass (``throw_in``, ``take_more``) does not.
TIMEOUT_COUNTED = frozenset({"lead", "cover", "beat"})


def match_timeout(*, match_id: int, version: int) -> bool:
    """The deadline of ``version`` passed: every seat the engine awaits plays (a human's seat the
    engine's default, counting towards autopilot; a bot or autopilot its bot move).

    Returns False, doing nothing, when the match is over or has moved on."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        if not loaded.match.is_active or loaded.match.version != version:
            return False
        _time_out(loaded)
        transaction.on_commit(_timeout_played)
    return True


def _timeout_played() -> None:
    """Count a played deadline, and note when the last one was (the staff's ops page)."""
    metrics.TIMEOUTS.inc()
    heartbeat.beat("timeout")


def _time_out(loaded: LoadedMatch) -> None:
    """Play every awaited seat of the locked match and commit. When the throw-in window closes
    (only throwers awaited) every one of them passes, a bot's seat too: nothing was thrown in
    time, and the bout ends the same whoever holds what (``docs/rules.md`` §3 "Waiting for the
    throwers")."""
    state = loaded.state
    limit = MatchPlayer.AUTOPILOT_AFTER_TIMEOUTS
    players = {p.seat: p for p in loaded.players}
    window = turn.in_throw_in_window(state)
    for seat, code in sorted(state.awaiting().items()):
        if state.is_over or seat not in state.awaiting():
            continue
        player = players[seat]
        if window:
            turn.play(loaded, seat, Action.parse("pass"), Move.By.TIMEOUT)
            continue
        if turn.is_bot_seat(player):
            # Not the bot's timeout: its turn task was lost or late (a worker, broker or database
            # outage), so the clock plays the bot's own move now.
            logger.warning(
                "match %s: the bot turn of seat %s was not played before its deadline; the clock plays it",
                loaded.match.pk,
                seat,
            )
            turn.play_bot(loaded, player)
            continue
        counted = code in TIMEOUT_COUNTED
        count = player.timeouts + 1 if counted else 0
        notes: list[dict[str, Any]] = [{"kind": "timeout", "seat": seat, "count": count, "limit": limit}]
        if count >= limit:
            notes.append({"kind": "autopilot", "seat": seat, "limit": limit})
        turn.play(loaded, seat, state.default_action(seat), Move.By.TIMEOUT, notes=tuple(notes))
        if counted:
            player.timeouts = count
            player.save(update_fields=["timeouts"])
            if count >= limit:
                playban.early_quit_note(loaded=loaded, player=player)  # left: absent too early
                turn.forfeit(loaded, player, resigned=False)
    turn.commit(loaded)


def matches_timeout_overdue() -> int:
    """Beat's clock (``games.clock``, twice a second): play the timeout of every active match
    whose deadline has passed, the throw-in windows' and the turns' alike. Returns how many
    matches it moved on. A match is read at its version and played under its lock at that
    version only (``match_timeout``), so two ticks at once, or a move that came first, make a
    second timeout do nothing."""
    overdue = selectors.active_matches().filter(deadline_at__lt=timezone.now()).values_list("pk", "version")
    played = 0
    for pk, version in overdue:
        try:
            played += match_timeout(match_id=pk, version=version)
        except LOST_DATABASE as error:  # every other match would fail alike: the next tick plays them
            logger.warning("database unavailable: the overdue deadlines wait for the next tick: %s", error)
            break
        except Exception:  # the clock must not stop at one broken match
            logger.exception("the overdue timeout of match %s failed", pk)
    return played


def match_rearm(*, match_id: int) -> None:
    """Send the bot turns of an active match again, e.g. after a restart lost the broker's pending
    countdowns (a duplicate does nothing: it carries the version); give the match a deadline if
    it has none, so the clock cannot pass it by."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        match = loaded.match
        if not match.is_active:
            return
        if match.deadline_at is None:
            match.deadline_at = timezone.now() + timedelta(seconds=match.table.turn_seconds)
            match.save(update_fields=["deadline_at"])
        turn.send_bot_turns(match, loaded.state, loaded.players)


def matches_rearm() -> int:
    """``match_rearm`` every match in play; returns how many. A match whose re-arm fails is logged
    and skipped: the others must still get their bot turns."""
    count = 0
    for match_id in selectors.active_matches().values_list("pk", flat=True):
        try:
            match_rearm(match_id=match_id)
        except Exception:
            logger.exception("re-arming match %s failed", match_id)
            continue
        count += 1
    return count
