"""An evaluation of one position: every legal move of one seat, judged by the strong search."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Evaluation(models.Model):
    """Asked by a signed-in user for ``seat`` of ``position``; ``total`` moves to judge, ``done``
    so far (the progress), ``judgements`` one ``{"move", "p", "samples"}`` per judged move. With
    ``open`` the search sees every card of the position (the user's own text, never a live
    match's); without it only the seat's own information, the hidden cards sampled."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="evaluations",
        verbose_name=_("user"),
    )
    position = models.TextField(_("position"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    open = models.BooleanField(_("every card shown"), default=False)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    total = models.PositiveIntegerField(_("moves"), default=0)
    done = models.PositiveIntegerField(_("moves judged"), default=0)
    judgements = models.JSONField(_("judgements"), default=list, db_column="results")
    created = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("evaluation")
        verbose_name_plural = _("evaluations")
        indexes = [models.Index(fields=["user", "status"], name="analysis_user_status")]

    def __str__(self) -> str:
        return f"evaluation {self.pk} of seat {self.seat}"
