"""Finished matches built straight from engine playouts, for the ratings and history tests.

Playing hundreds of matches through the live services would take minutes; these helpers play a
random legal game through the engine's public API and write the rows the services would have
written at the end: the table, the match (rules, seed, dealer, snapshot, result from
``games.results.match_result``), its players with place and fool, and the move log with events.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from games.engine import GameState, Rules, new_game
from games.models import Match, MatchPlayer, Move, Table
from games.results import match_result


def make_users(count: int, prefix: str = "p") -> list[User]:
    return [
        User.objects.create_user(username=f"{prefix}{n}", password=None, display_name=f"{prefix}{n}")
        for n in range(count)
    ]


def random_game(
    rules: Rules, seed: str, rng: random.Random
) -> tuple[GameState, list[tuple[int, str, list[dict[str, Any]]]]]:
    """A random legal game to its end: the final state and ``(seat, action, events)`` per move."""
    state = new_game(rules, seed=seed)
    moves: list[tuple[int, str, list[dict[str, Any]]]] = []
    while not state.is_over:
        seat = rng.choice(state.actors())
        action = rng.choice(state.legal_actions(seat))
        events = [event.to_dict() for event in state.apply(seat, action)]
        moves.append((seat, str(action), events))
    return state, moves


def finished_match(
    users: list[User],
    rules: Rules,
    *,
    seed: str,
    rng: random.Random,
    rated: bool = True,
    finished_at: datetime | None = None,
    forfeits: tuple[int, ...] | list[int] = (),
    with_moves: bool = True,
) -> Match:
    """A finished match of ``users`` (in seat order) played at random; ``forfeits`` are seats
    that resigned (in that order), which the stored result moves to the bottom."""
    state, moves = random_game(rules, seed, rng)
    table = Table.objects.create(
        creator=users[0], rules=rules.to_dict(), rated=rated, status=Table.Status.CLOSED
    )
    match = Match.objects.create(
        table=table,
        number=1,
        rules=rules.to_dict(),
        seed=seed,
        dealer=state.dealer,
        status=Match.Status.FINISHED,
        version=len(moves),
        snapshot=state.to_json(),
    )
    players = [
        MatchPlayer(
            match=match,
            seat=seat,
            user=user,
            forfeit_order=(forfeits.index(seat) + 1) if seat in forfeits else None,
            resigned=seat in forfeits,
            autopilot=seat in forfeits,
        )
        for seat, user in enumerate(users)
    ]
    result = match_result(rules=Rules.from_dict(match.rules), state=state, forfeits=list(forfeits))
    place_of = {seat: i + 1 for i, group in enumerate(result["places"]) for seat in group}
    losers = set(result["losing_team"] or ()) | {result["fool"]}
    for player in players:
        player.place = place_of[player.seat]
        player.fool = player.seat in losers
    MatchPlayer.objects.bulk_create(players)
    if with_moves:
        Move.objects.bulk_create(
            Move(match=match, seq=n, seat=seat, action=action, events=events)
            for n, (seat, action, events) in enumerate(moves, start=1)
        )
    match.result = result
    match.finished_at = finished_at or timezone.now()
    match.save(update_fields=["result", "finished_at"])
    return match


def minutes(n: int) -> datetime:
    """A fixed point in time ``n`` minutes after the tests' epoch."""
    return datetime(2026, 1, 1, 12, 0, tzinfo=timezone.get_current_timezone()) + timedelta(minutes=n)
