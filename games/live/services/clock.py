"""Time at a match in play: the turn timer firing, timeouts, re-arming after a restart, and the
sweep of deadlines whose timer was lost (see ``turn`` for how a timer is armed).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import Action
from games.live import selectors
from games.live.loaded import LoadedMatch
from games.live.services import turn
from games.models import MatchPlayer, Move

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
    return True


def match_deadline(*, match_id: int, due: str) -> bool:
    """The turn timer due at ``due`` (ISO 8601, the ``timer_at`` it was armed for) fired.

    Before the deadline (moves pushed it later) the timer re-arms itself for it; at or after
    the deadline the awaited seats time out (``match_timeout``). Returns whether it played;
    a timer that is no longer the match's own (stale, or delivered twice) does nothing."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        match = loaded.match
        if not match.is_active or match.timer_at is None or match.timer_at.isoformat() != due:
            return False
        match.timer_at = None
        if match.deadline_at is not None and match.deadline_at > timezone.now():
            turn.arm_timer(match, window=turn.in_throw_in_window(loaded.state))
            match.save(update_fields=["timer_at"])
            return False
        _time_out(loaded)  # its commit saves ``timer_at`` with the next timer's
    return True


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
                turn.forfeit(loaded, player, resigned=False)
    turn.commit(loaded)


def matches_timeout_overdue(*, grace_seconds: float = 10.0) -> int:
    """Play the timeout of every active match whose deadline passed ``grace_seconds`` ago.
    Returns how many matches it moved on. With no grace it is beat's clock (``games.clock``):
    the throw-in windows that ran out, which have no timer of their own (``turn.arm_timer``);
    with the default grace, the safety net for a deadline task the broker lost."""
    overdue = (
        selectors.active_matches()
        .filter(deadline_at__lt=timezone.now() - timedelta(seconds=grace_seconds))
        .values_list("pk", "version")
    )
    played = 0
    for pk, version in overdue:
        try:
            played += match_timeout(match_id=pk, version=version)
        except Exception:  # a safety net must not stop at one broken match
            logger.exception("the overdue timeout of match %s failed", pk)
    return played


def match_rearm(*, match_id: int) -> None:
    """Enqueue the deadline (at the stored ``deadline_at``) and the bot turns of an active match
    again, e.g. after a restart lost the broker's pending countdowns."""
    with transaction.atomic():
        loaded = turn.match_lock(match_id)
        match = loaded.match
        if not match.is_active:
            return
        if match.deadline_at is None:
            match.deadline_at = timezone.now() + timedelta(seconds=match.table.turn_seconds)
        match.timer_at = None  # the queued timer, if any, died with the broker's memory
        turn.arm(match, loaded.state, loaded.players)
        match.save(update_fields=["deadline_at", "timer_at"])


def matches_rearm() -> int:
    """``match_rearm`` every match in play; returns how many. A match whose re-arm fails is logged
    and skipped: the others must still get their timers."""
    count = 0
    for match_id in selectors.active_matches().values_list("pk", flat=True):
        try:
            match_rearm(match_id=match_id)
        except Exception:
            logger.exception("re-arming match %s failed", match_id)
            continue
        count += 1
    return count
