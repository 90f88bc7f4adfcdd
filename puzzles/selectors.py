"""Every read of the puzzles: one puzzle, the next one near a player's rating, the daily one."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from puzzles.models import Attempt, Puzzle, PuzzleRating


def puzzle(puzzle_id: int) -> Puzzle | None:
    return Puzzle.objects.filter(pk=puzzle_id).first()


def rating_of(user: User | AnonymousUser) -> float | None:
    if not user.is_authenticated:
        return None
    row = PuzzleRating.objects.filter(user_id=user.pk).values_list("rating", flat=True).first()
    return row


def next_for(user: User | AnonymousUser) -> Puzzle | None:
    """The puzzle nearest the player's rating among those they have not tried (a visitor: near
    1500, the start of every rating)."""
    target = rating_of(user) or 1500.0
    queryset = Puzzle.objects.all()
    if user.is_authenticated:
        queryset = queryset.exclude(pk__in=Attempt.objects.filter(user_id=user.pk).values("puzzle_id"))
    above = queryset.filter(rating__gte=target).order_by("rating", "pk").first()
    below = queryset.filter(rating__lt=target).order_by("-rating", "-pk").first()
    if above is None or below is None:
        return above or below
    return above if above.rating - target <= target - below.rating else below


def daily(day: datetime.date) -> Puzzle | None:
    """The day's puzzle: the same one for everyone all day, picked by the date among the puzzles
    the player in the game got wrong (else any)."""
    for queryset in (Puzzle.objects.filter(blunder=True), Puzzle.objects.all()):
        count = queryset.count()
        if count:
            return queryset.order_by("pk")[day.toordinal() % count]
    return None


def attempted(user: User | AnonymousUser, puzzle_id: int) -> Attempt | None:
    if not user.is_authenticated:
        return None
    return Attempt.objects.filter(user_id=user.pk, puzzle_id=puzzle_id).first()
