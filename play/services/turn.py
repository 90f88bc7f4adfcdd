"""The turn core: what every change to a match in play goes through, whoever makes it (a player's
move, a bot's turn, a timeout, a resignation).

The shape of a change: ``match_lock`` (the match row locked and read with its table and players,
as a ``LoadedMatch``), the caller's checks, ``play`` for each action (the engine applies it to
the loaded state, a ``Move`` row logs it), then ``commit``: the snapshot, the version up by exactly
one, the result when the game (or a forfeit) decided it, else the next deadline; and after the
commit a thin "changed" broadcast and the bot turns that come next (``send_bot_turns``). A
refused change raises before ``commit`` and its transaction rolls back, so two calls made at the
same version have exactly one winner.

Lock order: a match row before its table row (every match path touches the table only at its
end, when the match finishes), then the ratings' lock when a rated match finishes (its ratings
are written with its result); table operations lock the table row alone.

Time: every active match has ``deadline_at`` (now + the table's ``turn_seconds`` after each
change, or its short ``throw_in_seconds`` while only throwers are awaited, the public throw-in
window that a timeout closes with everybody's pass, or the seats' own halved timers when every
awaited seat halved its own: ``turn_seconds_now`` and ``moves.match_halve_timer``), and nothing
else: no task waits for it. Beat's ``games.clock`` plays every deadline that has run out, twice
a second (``clock.matches_timeout_overdue``), so a deadline is played within half a second of
its time, whatever anyone holds; it lives in the database alone, so no broker lost or restarted
can lose one, and a change that moves it sends nothing. (A turn-timer task per match, re-arming
itself whenever it came due before a deadline that moves had pushed later, cost the worker a
task for nothing most times, and a burst of them when matches dealt together all came to their
first deadline at once: ``docs/performance.md``.) Seats the engine awaits
that belong to bots (or to autopilots) get a ``games.bot_turn`` task after a short human-like
delay (``settings.GAMES_BOT_DELAY``; ``send_bot_turns``); it carries the version and does
nothing once the match has moved on.

Tasks by name: that task (``play.tasks``) calls the services, so the services send it by the
name it is registered under, ``BOT_TURN_TASK``, through ``durak_site.tasks.enqueue_on_commit``,
rather than import it: Celery needs only the name to send a task, so the tasks import the
services and the services import no task (Zulip's actions queue their events by queue name the
same way). The other way, handing the turn core what to enqueue, would make every caller of every
service carry the tasks along.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import timedelta
from typing import Any, Final

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from durak_site import logcontext, metrics
from durak_site.tasks import enqueue_on_commit
from games import bots
from games.engine import Action, GameState, IllegalAction, Rules
from games.engine.phases import THROW_IN_CODES
from games.models import Match, MatchPlayer, Move
from games.results import match_result
from games.signals import match_finished
from play import broadcast, selectors
from play.loaded import LoadedMatch
from play.services import rows
from play.services.errors import NO_SUCH_MATCH, GameError, MatchOver, NotYourSeat
from ratings.services import match_rate

logger = logging.getLogger(__name__)

#: The registered name of the task the services send (``play.tasks`` registers it so).
BOT_TURN_TASK: Final = "games.bot_turn"
#: The bot level that plays a seat on autopilot.
AUTOPILOT_LEVEL = "easy"
#: The shortest turn timer: a table's may not be shorter, and a halved one stops here.
MIN_TURN_SECONDS: Final = 5
#: The throw-in window (``Table.throw_in_seconds``): its default and bounds.
DEFAULT_THROW_IN_SECONDS: Final = 5
MIN_THROW_IN_SECONDS: Final = 2
MAX_THROW_IN_SECONDS: Final = 30


def match_lock(match_id: int) -> LoadedMatch:
    """Lock the match row until the current transaction ends and read it, with its table and its
    players, in one statement (``selectors.match_load``): the one way a service locks a match.
    The result carries no move yet; ``play`` adds each one it logs."""
    loaded = selectors.match_load(match_id=match_id, moves_after=None, lock=True)
    if loaded is None:
        raise GameError(NO_SUCH_MATCH)
    logcontext.bind_match(match_id, loaded.match.version)
    return loaded


def player_in_play(loaded: LoadedMatch, user: User) -> MatchPlayer:
    """``user``'s player in the locked match; raises ``MatchOver`` when the match is over and
    ``NotYourSeat`` when ``user`` does not play it."""
    if not loaded.match.is_active:
        raise MatchOver()
    player = loaded.player_of(user)
    if player is None:
        raise NotYourSeat()
    return player


def is_bot_seat(player: MatchPlayer) -> bool:
    """Whether the club's worker plays the seat: a built-in bot's, or any seat on autopilot (an
    outside program plays its own seat through the Bot API until it times out)."""
    return player.autopilot or (player.user.is_bot and not player.user.is_program)


def play(
    loaded: LoadedMatch, seat: int, action: Action, by: Move.By, *, notes: tuple[dict[str, Any], ...] = ()
) -> Move:
    """Apply one action to the loaded state (raises ``IllegalAction`` unchanged) and log it;
    ``notes`` (public events that are not the engine's, such as why the timer played) are
    logged before the engine's events."""
    match = loaded.match
    events = [*notes, *(event.to_dict() for event in loaded.state.apply(seat, action))]
    match.last_seq += 1  # saved by ``commit``, which every change ends with
    move = rows.move_insert(
        Move(match=match, seq=match.last_seq, seat=seat, action=str(action), events=events, by=by)
    )
    loaded.moves.append(move)
    # Counted once the change commits (a refused or rolled-back one never is).
    transaction.on_commit(metrics.MOVES.labels(match.rules.get("variant", "?"), by).inc)
    return move


#: The most forced moves one change plays in a row (a stage-1 circle has at most 54 draws).
MAX_FORCED = 60


def forced_action(state: GameState, seat: int) -> Action | None:
    """The move ``seat`` must make when there is nothing to choose: in circle stage 1, a drawn
    card that can beat exactly one circle card (``docs/rules.md`` §5, "Stage 1": it must beat
    one). The drawn card and the circle lie face up, so playing it at once tells nobody anything
    the table does not show."""
    if state.stage != 1 or state.awaiting().get(seat) != "beat":
        return None
    legal = state.legal_actions(seat)
    return legal[0] if len(legal) == 1 else None


def play_forced(loaded: LoadedMatch) -> None:
    """Play every forced move the game now awaits (``forced_action``), as ``Move.By.FORCED``,
    until it awaits a real choice or is over."""
    state = loaded.state
    for _step in range(MAX_FORCED):
        if state.is_over:
            return
        for seat in sorted(state.awaiting()):
            action = forced_action(state, seat)
            if action is not None:
                play(loaded, seat, action, Move.By.FORCED)
                break
        else:
            return


def play_bot(loaded: LoadedMatch, player: MatchPlayer) -> None:
    """Play the bot's move for ``player``'s seat on the locked match (``bot_action``)."""
    action, by = bot_action(loaded, player)
    play(loaded, player.seat, action, by)


def bot_action(loaded: LoadedMatch, player: MatchPlayer) -> tuple[Action, Move.By]:
    """The bot's move for ``player``'s seat: its level, or the autopilot's for a human; and who
    played it, returned after the level's think time, forced or not (``think_out``). Reads the
    public history, writes nothing, so it may run on a match read without its lock
    (``moves.bot_turn`` searches and waits so, then applies at the version it searched).

    A bot that fails (raises, or answers an illegal action) is logged and replaced by the
    engine's default for this move: a bug in a bot must not leave a match waiting forever. A
    database that fails is not the bot's failure: the public history is read before, so a lost
    connection raises to the caller (the task is tried again: ``play.tasks.bot_turn``) instead
    of playing the default, which is what a timeout plays."""
    match, state = loaded.match, loaded.state
    history = _public_history(match)
    built_in = player.user.is_bot and not player.user.is_program
    level = player.user.bot_level if built_in else AUTOPILOT_LEVEL
    if level not in bots.LEVELS:
        level = AUTOPILOT_LEVEL
    seat = player.seat
    by = Move.By.BOT if built_in else Move.By.AUTOPILOT
    legal = state.legal_actions(seat)
    late = bot_lateness(loaded)
    started = clock()
    try:
        decision = bots.decide(
            level,
            state.view(seat),
            legal,
            f"{match.pk}:{match.version}:{seat}",
            rules=Rules.from_dict(match.rules),
            history=history,
            late=late,
        )
        action = decision.action
        if decision.iterations:
            metrics.BOT_ITERATIONS.labels(level).observe(decision.iterations)
            metrics.BOT_CPU_SECONDS.labels(level).observe(decision.cpu_s)
        if action not in legal:
            raise IllegalAction("bot_illegal", f"the {level} bot chose {action}, which is not legal")
    except Exception:
        logger.exception("bot %s failed in match %s at version %s", level, match.pk, match.version)
        action = state.default_action(seat)
    metrics.BOT_DECISION_SECONDS.labels(level).observe(clock() - started)
    think_out(level, started - late)
    return action, by


def bot_lateness(loaded: LoadedMatch) -> float:
    """Seconds after it was due that a bot turn is picked up (0 on time): the change that armed
    it set ``deadline_at`` to its own time plus ``turn_seconds_now`` and sent the turn at most
    ``GAMES_BOT_DELAY``'s upper bound later (``send_bot_turns``). A late turn spends less
    (``games.bots.budget.Budget.after``) and its think wait counts from when it was due, so a
    backlog of the ``bots`` queue drains instead of running into the turn timers."""
    match = loaded.match
    if match.deadline_at is None:
        return 0.0
    armed = match.deadline_at - timedelta(seconds=turn_seconds_now(match, loaded.state, loaded.players))
    return max(0.0, (timezone.now() - armed).total_seconds() - settings.GAMES_BOT_DELAY[1])


#: The clock and the pause of ``think_out`` (tests replace them with a fake clock).
clock = time.perf_counter
pause = time.sleep


def think_out(level: str, started: float) -> None:
    """Wait until ``level``'s think time (``bots.THINK_SECONDS``) has passed since ``started``:
    a bot's answer then shows after the same time whether it searched or its move was forced,
    so the pause tells nobody what it holds (the search, capped well below, may end sooner)."""
    left = bots.THINK_SECONDS.get(level, 0.0) - (clock() - started)
    if left > 0:
        pause(left)


def _public_history(match: Match) -> list[dict[str, Any]]:
    """Every public event of the match so far, in order: what a careful player at the table saw
    (the searching bots remember picked-up cards and the discard from it)."""
    logged = match.moves.order_by("seq").values_list("events", flat=True)
    return [event for events in logged for event in events]


def forfeit(loaded: LoadedMatch, player: MatchPlayer, *, resigned: bool) -> None:
    """Put ``player`` (one of ``loaded.players``) on autopilot; the first to forfeit is the
    match's fool."""
    if player.forfeit_order is None:
        player.forfeit_order = max((p.forfeit_order or 0 for p in loaded.players), default=0) + 1
    player.autopilot = True
    player.resigned = player.resigned or resigned
    player.save(update_fields=["autopilot", "resigned", "forfeit_order"])


def commit(loaded: LoadedMatch) -> None:
    """Save the loaded state as the match's snapshot, bump the version, finish the match when the
    game (or a forfeit) decided it, and arrange the after-commit broadcast and tasks.

    Only the fields a change writes are saved (the row's rules, seed and result stay put). The
    forced moves the change leads to are played first (``play_forced``): nobody waits for them."""
    play_forced(loaded)
    match, state, players = loaded.match, loaded.state, loaded.players
    match.snapshot = state.to_json()
    match.version += 1
    fields = ["snapshot", "version", "last_seq", "deadline_at"]
    if state.is_over or _decided_by_forfeit(match, state, players):
        _finish(match, state, players)
        fields += ["status", "finished_at", "result"]
    else:
        match.deadline_at = timezone.now() + timedelta(seconds=turn_seconds_now(match, state, players))
        send_bot_turns(match, state, players)
    rows.match_update(match, fields)
    if match.status == Match.Status.FINISHED and match.table.rated:
        # As lila's Finisher: the ratings are written with the result, so the push that ends
        # the game shows them and no second change of the match has to announce them.
        match_rate(match.pk)
    broadcast.match_changed(match)


def in_throw_in_window(state: GameState) -> bool:
    """Whether the game awaits only throwers (``docs/rules.md`` §3 "Waiting for the throwers"):
    every one of them, a card that fits or not, so the window is public and tells nothing."""
    awaited = state.awaiting()
    return bool(awaited) and all(code in THROW_IN_CODES for code in awaited.values())


def turn_seconds_now(match: Match, state: GameState, players: list[MatchPlayer]) -> int:
    """The seconds the seats the game awaits now have: the table's timer, unless every one of
    them halved their own (``moves.match_halve_timer``); then the longest of their own timers, so
    nobody's time is cut by another player's choice. While only throwers are awaited, the
    table's throw-in window if it is shorter."""
    seconds = _turn_seconds(match, state, players)
    if in_throw_in_window(state):
        return min(seconds, int(match.table.throw_in_seconds))
    return seconds


def _turn_seconds(match: Match, state: GameState, players: list[MatchPlayer]) -> int:
    own = {p.seat: p.turn_seconds for p in players}
    timers = [own.get(seat) for seat in state.awaiting()]
    if not timers or None in timers:
        return int(match.table.turn_seconds)
    return max(t for t in timers if t is not None)


def _seats_in_play(state: GameState) -> set[int]:
    """Seats that have not finished (they hold cards, or will in circle stage 1)."""
    finished = {seat for place in state.places for seat in place}
    return set(range(state.n)) - finished


def _decided_by_forfeit(match: Match, state: GameState, players: list[MatchPlayer]) -> bool:
    """Whether forfeits already decide the game: in teams any forfeit does (that team loses);
    otherwise when at most one seat still in play is not forfeited."""
    forfeited = {p.seat for p in players if p.forfeited}
    if not forfeited:
        return False
    if Rules.from_dict(match.rules).teams:
        return True
    return len(_seats_in_play(state) - forfeited) <= 1


def _finish(match: Match, state: GameState, players: list[MatchPlayer]) -> None:
    """Write the result, places and fool; free the table for "play again"; announce the end
    (``games.signals.match_finished``: tournaments and the table's leavers listen)."""
    forfeits = [p.seat for p in sorted(players, key=lambda p: p.forfeit_order or 0) if p.forfeited]
    result = match_result(rules=Rules.from_dict(match.rules), state=state, forfeits=forfeits)
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.deadline_at = None
    match.result = result
    place_of = {seat: i + 1 for i, group in enumerate(result["places"]) for seat in group}
    losers = set(result["losing_team"] or ()) | {result["fool"]}
    for player in players:
        player.place = place_of.get(player.seat)
        player.fool = player.seat in losers
        player.save(update_fields=["place", "fool"])
    broadcast.table_changed(match.table)
    match_finished.send(sender=Match, match=match)


# --- after commit: the bot turns --------------------------------------------------------------


def send_bot_turns(match: Match, state: GameState, players: list[MatchPlayer]) -> None:
    """After commit, a bot turn for each awaited seat played by a bot or an autopilot
    (``players``: all the match's players, with their users), and at once for a forced move."""
    awaited = state.awaiting()
    if not awaited:
        return
    bot_seats = [p.seat for p in players if p.seat in awaited and is_bot_seat(p)]
    low, high = settings.GAMES_BOT_DELAY
    for seat in bot_seats:
        enqueue_on_commit(BOT_TURN_TASK, match.pk, match.version, seat, countdown=random.uniform(low, high))
    # A deal that starts with a forced move (every later one is played by ``commit``): at once.
    for seat in awaited:
        if seat not in bot_seats and forced_action(state, seat) is not None:
            enqueue_on_commit(BOT_TURN_TASK, match.pk, match.version, seat, countdown=0)
