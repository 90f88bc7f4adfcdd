"""Puzzles mined from finished matches, their Glicko-2 ratings, the players' puzzle ratings, the
rated attempts, and the miner's cursor."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Puzzle(models.Model):
    """A position of a finished two-player match with a proven line (``puzzles.mining``)."""

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="puzzles", verbose_name=_("match")
    )
    ply = models.PositiveIntegerField(_("actions before the position"))
    seat = models.PositiveSmallIntegerField(_("seat to solve"))
    position = models.TextField(_("position"))
    #: ``[{"accept": [...], "play": "...", "replies": [[seat, "..."], ...]}, ...]``
    steps = models.JSONField(_("solution"))
    themes = models.JSONField(_("themes"), default=list)
    blunder = models.BooleanField(_("the player in the game went wrong"), default=False)
    rating = models.FloatField(_("rating"), default=1500.0)
    deviation = models.FloatField(_("rating deviation"), default=350.0)
    volatility = models.FloatField(_("volatility"), default=0.06)
    attempts = models.PositiveIntegerField(_("rated attempts"), default=0)
    solved = models.PositiveIntegerField(_("solved attempts"), default=0)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ("id",)
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        constraints = [models.UniqueConstraint(fields=("match", "ply"), name="puzzle_unique_ply")]
        indexes = [models.Index(fields=("rating",), name="puzzle_rating")]

    def __str__(self) -> str:
        return f"#{self.pk}"


class PuzzleRating(models.Model):
    """A player's puzzle rating (Glicko-2), made by their first rated attempt."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating"
    )
    rating = models.FloatField(_("rating"), default=1500.0)
    deviation = models.FloatField(_("rating deviation"), default=350.0)
    volatility = models.FloatField(_("volatility"), default=0.06)

    class Meta:
        verbose_name = _("puzzle rating")
        verbose_name_plural = _("puzzle ratings")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating:.0f}"


class Attempt(models.Model):
    """The one rated attempt of a user at a puzzle: its result and the rating change."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="rated_attempts")
    solved = models.BooleanField(_("solved"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle attempt")
        verbose_name_plural = _("puzzle attempts")
        constraints = [models.UniqueConstraint(fields=("user", "puzzle"), name="attempt_unique_user_puzzle")]

    def __str__(self) -> str:
        return f"{self.user_id} · {self.puzzle_id}"


class MinerCursor(models.Model):
    """The last match id the miner has read: each run reads only the matches finished after it."""

    name = models.CharField(max_length=32, unique=True)
    last_match_id = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name}: {self.last_match_id}"
