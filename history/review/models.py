"""A review of one seat's play in a finished match, and its decisions (``history.models`` holds
these for Django)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Match


class Review(models.Model):
    """One per match and seat: asking again returns this one. ``total`` decisions to assess,
    ``done`` assessed so far (the progress); ``status`` pending until every one is stored, or
    failed when a step's search raised (asking again later tries again)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="reviews", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reviews_requested",
        verbose_name=_("requested by"),
    )
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    total = models.PositiveIntegerField(_("decisions"), default=0)
    done = models.PositiveIntegerField(_("decisions assessed"), default=0)
    created = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("review")
        verbose_name_plural = _("reviews")
        constraints = [models.UniqueConstraint(fields=("match", "seat"), name="review_unique_seat")]

    def __str__(self) -> str:
        return f"review of seat {self.seat} in match {self.match_id}"


class ReviewDecision(models.Model):
    """One decision: the logged move ``seq``, the move made and the search's best, each one's
    estimated probability of not being the fool, the samples behind each, and the label."""

    review = models.ForeignKey(
        Review, on_delete=models.CASCADE, related_name="decisions", verbose_name=_("review")
    )
    seq = models.PositiveIntegerField(_("move number"))
    played = models.CharField(_("move made"), max_length=200)
    best = models.CharField(_("best move"), max_length=200)
    p_played = models.FloatField(_("not the fool after the move made"))
    p_best = models.FloatField(_("not the fool after the best move"))
    samples_played = models.PositiveIntegerField(_("samples behind the move made"))
    samples_best = models.PositiveIntegerField(_("samples behind the best move"))
    label = models.CharField(_("label"), max_length=12)

    class Meta:
        verbose_name = _("reviewed decision")
        verbose_name_plural = _("reviewed decisions")
        ordering = ("review", "seq")
        constraints = [models.UniqueConstraint(fields=("review", "seq"), name="reviewdecision_unique_seq")]

    def __str__(self) -> str:
        return f"{self.seq}: {self.played} ({self.label})"
