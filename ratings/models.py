"""Ratings and their history: one ``Rating`` per user and pool, one ``RatingChange`` per rated
match and player.

The tables keep the names they had when these models lived in ``accounts`` (``accounts_rating``,
``accounts_ratingchange``): the move to this app changed Django's state only, no data moved.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """A user's Elo rating in one pool (``"<variant>:<kind>"``, see ``ratings.services``).

    Written only by ``ratings.services.match_rate`` (and the recompute command), always together
    with the ``RatingChange`` rows that explain it, so the rating is the sum of its history.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("user")
    )
    pool = models.CharField(_("pool"), max_length=32)
    rating = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    fools = models.PositiveIntegerField(_("times the fool"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    best = models.FloatField(_("best rating"))
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        db_table = "accounts_rating"
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=("user", "pool"), name="rating_unique_user_pool"),
        ]
        indexes = [models.Index(fields=("pool", "-rating"), name="rating_pool_board")]

    def __str__(self) -> str:
        return f"{self.user} · {self.pool}: {self.rating:.0f}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating: the audit trail of every ``Rating``.

    ``seq`` numbers changes in the order they were applied (match-end order, but for the race in
    ``ratings.services``'s docstring), which ``recompute_ratings`` replays; the unique
    ``(match, user)`` is the last line of defence against a task delivered twice.
    """

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("user"),
    )
    pool = models.CharField(_("pool"), max_length=32)
    seq = models.PositiveBigIntegerField(_("applied order"))
    before = models.FloatField(_("before"))
    after = models.FloatField(_("after"))
    delta = models.FloatField(_("change"))
    k = models.PositiveSmallIntegerField(_("K factor"))
    games_before = models.PositiveIntegerField(_("games before"))
    outcome = models.CharField(_("outcome"), max_length=8)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        db_table = "accounts_ratingchange"
        ordering = ("seq",)
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=("match", "user"), name="ratingchange_unique_match_user"),
        ]
        indexes = [
            models.Index(fields=("user", "pool", "seq"), name="ratingchange_user_pool_seq"),
            models.Index(fields=("seq",), name="ratingchange_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.match}: {self.delta:+.1f}"


class UnratedMatch(models.Model):
    """A finished match of a rated table that moved no rating, and why (``ratings.farming``):
    it ended too early, or its players had had too many rated games together lately.

    Written by ``ratings.services.match_rate`` in place of the ``RatingChange`` rows, so the
    decision is taken once, in applied order, and the recompute replays it instead of taking it
    again under settings that may have changed since. Its permission opens the staff's queue of
    suspicious pairs (``ratings.views.suspicious_pairs``).
    """

    class Reason(models.TextChoices):
        EARLY = "early", _("ended too early")
        REPEAT = "repeat", _("too many rated games between the same players")

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="unrated", verbose_name=_("match")
    )
    reason = models.CharField(_("reason"), max_length=8, choices=Reason.choices)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ("-at",)
        verbose_name = _("unrated match")
        verbose_name_plural = _("unrated matches")
        # "view_": the view-only "Club staff" group gets it with the other view permissions.
        permissions = [("view_suspicious_pairs", _("Can view the queue of suspicious pairs of players"))]

    def __str__(self) -> str:
        return f"{self.match}: {self.reason}"
