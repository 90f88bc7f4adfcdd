"""Seeks, challenges and alert settings, in the database.

Seeks live here rather than in a process's memory: with several daphnes and workers every
"Play now" must see every other one, and the pairing that seats them runs under one PostgreSQL
advisory lock (``pairing.services``), so each table is made exactly once. A seek row stays after
it is matched or cancelled (its ``table`` says where it led); only ``WAITING`` rows are the pool.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pairing.setups import Setup


class Seek(models.Model):
    """One player waiting for a table of a given setup."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        MATCHED = "matched", _("matched")
        CANCELLED = "cancelled", _("cancelled")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    variant = models.CharField(_("variant"), max_length=16)
    players = models.PositiveSmallIntegerField(_("players"))
    teams = models.BooleanField(_("teams"), default=False)
    deck = models.PositiveSmallIntegerField(_("deck"))
    turn_seconds = models.PositiveSmallIntegerField(_("turn timer (seconds)"))
    rated = models.BooleanField(_("rated"), default=False)
    rating = models.FloatField(_("rating when the seek opened"))
    rating_range = models.PositiveSmallIntegerField(
        _("rating range"), null=True, blank=True, help_text=_("Empty: any rating.")
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.WAITING)
    created = models.DateTimeField(_("created"), default=timezone.now, db_index=True)
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )

    class Meta:
        ordering = ("created",)
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")
        constraints = [
            # One waiting seek a person: "Play now" replaces the previous one, and nobody can be
            # seated at two new tables by one pairing.
            models.UniqueConstraint(
                fields=("user",), condition=Q(status="waiting"), name="pairing_one_waiting_seek"
            ),
        ]
        indexes = [models.Index(fields=("status", "created"), name="pairing_seek_pool")]

    def __str__(self) -> str:
        return f"{self.user} · {self.setup.key}"

    @property
    def setup(self) -> Setup:
        return Setup(self.variant, self.players, self.teams, self.deck, self.turn_seconds, self.rated)


class Challenge(models.Model):
    """One player inviting another to a two-player table; it expires at ``expires_at``."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    variant = models.CharField(_("variant"), max_length=16)
    deck = models.PositiveSmallIntegerField(_("deck"))
    turn_seconds = models.PositiveSmallIntegerField(_("turn timer (seconds)"))
    rated = models.BooleanField(_("rated"), default=False)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"), db_index=True)
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )

    class Meta:
        ordering = ("-created",)
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        constraints = [
            models.CheckConstraint(
                condition=~Q(challenger=models.F("challenged")), name="pairing_challenge_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} → {self.challenged}"

    @property
    def setup(self) -> Setup:
        return Setup(self.variant, 2, False, self.deck, self.turn_seconds, self.rated)

    def is_open(self, now: datetime | None = None) -> bool:
        """Pending and not past its expiry."""
        return self.status == self.Status.PENDING and self.expires_at > (now or timezone.now())


class Alerts(models.Model):
    """How a player wants to be told that a match started, a challenge came or it is their turn
    while the tab is hidden (the settings page). The tab title always tells; no row: defaults."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="alerts")
    browser = models.BooleanField(_("browser notification"), default=False)
    sound = models.BooleanField(_("sound"), default=False)

    class Meta:
        verbose_name = _("alert settings")
        verbose_name_plural = _("alert settings")

    def __str__(self) -> str:
        return f"{self.user}"
