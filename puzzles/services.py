"""Every write of the puzzles: mining new matches past the cursor, and a rated attempt."""

from __future__ import annotations

from dataclasses import asdict

from django.db import transaction

from accounts.models import User
from games.engine import GameRecord, Rules
from games.models import Match, Move
from puzzles import glicko2
from puzzles.mining import mine
from puzzles.models import Attempt, MinerCursor, Puzzle, PuzzleRating

#: Matches read per run: the periodic task reads a batch, the next run goes on from the cursor.
BATCH = 50


def mine_new(batch: int = BATCH) -> tuple[int, int]:
    """Read up to ``batch`` matches past the cursor and store their puzzles; returns (matches
    read, puzzles made). The cursor stops before the first match still in play (ids are given at
    the deal, so a lower id may finish later), and a puzzle already stored is not made again."""
    cursor, _ = MinerCursor.objects.get_or_create(name="matches")
    matches = list(
        Match.objects.filter(pk__gt=cursor.last_match_id).order_by("pk").values_list("pk", "status")[:batch]
    )
    made = read = 0
    for pk, status in matches:
        if status == Match.Status.ACTIVE:
            break
        read += 1
        if status == Match.Status.FINISHED:
            made += _mine_match(pk)
        MinerCursor.objects.filter(pk=cursor.pk).update(last_match_id=pk)
    return read, made


def _mine_match(match_id: int) -> int:
    match = Match.objects.only("rules", "seed", "dealer").get(pk=match_id)
    rules = Rules.from_dict(match.rules)
    if rules.players != 2:
        return 0
    actions = [
        (int(seat), str(text))
        for seat, text in Move.objects.filter(match_id=match_id).order_by("seq").values_list("seat", "action")
    ]
    found = mine(GameRecord(rules, match.seed, match.dealer, actions))
    if found is None:
        return 0
    _, created = Puzzle.objects.get_or_create(
        match_id=match_id,
        ply=found.ply,
        defaults={
            "seat": found.seat,
            "position": found.position,
            "steps": [asdict(step) for step in found.steps],
            "themes": list(found.themes),
            "blunder": found.blunder,
        },
    )
    return int(created)


def attempt_rate(user: User, puzzle_id: int, solved: bool) -> Attempt | None:
    """The user's rated attempt at the puzzle, moving both ratings (Glicko-2, one game); None when
    the user already had one (only the first attempt is rated)."""
    with transaction.atomic():
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
        if Attempt.objects.filter(user=user, puzzle=puzzle).exists():
            return None
        mine_row, _ = PuzzleRating.objects.select_for_update().get_or_create(user=user)
        player = glicko2.Rating(mine_row.rating, mine_row.deviation, mine_row.volatility)
        problem = glicko2.Rating(puzzle.rating, puzzle.deviation, puzzle.volatility)
        score = 1.0 if solved else 0.0
        new_player = glicko2.update(player, [(problem, score)])
        new_problem = glicko2.update(problem, [(player, 1.0 - score)])
        attempt = Attempt.objects.create(
            user=user,
            puzzle=puzzle,
            solved=solved,
            rating_before=player.rating,
            rating_after=new_player.rating,
        )
        mine_row.rating, mine_row.deviation, mine_row.volatility = (
            new_player.rating,
            new_player.deviation,
            new_player.volatility,
        )
        mine_row.save()
        puzzle.rating, puzzle.deviation, puzzle.volatility = (
            new_problem.rating,
            new_problem.deviation,
            new_problem.volatility,
        )
        puzzle.attempts += 1
        puzzle.solved += int(solved)
        puzzle.save()
    return attempt
