"""The club's user: a public display name, bot accounts, and deletion that keeps history readable."""

from collections.abc import Callable

from django.contrib.auth.models import AbstractUser
from django.core.validators import MinLengthValidator, RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX_LENGTH = 32

display_name_validators: list[Callable[[str], None]] = [
    MinLengthValidator(2),
    RegexValidator(
        r"^\w[\w .\-]*\w$",
        _("Use letters, digits, spaces, dots, dashes and underscores; start and end with a letter "
          "or digit."),
    ),
]


class User(AbstractUser):
    """A player. ``display_name`` is what everyone sees; ``username`` is internal.

    Deleting an account anonymises the row instead of removing it (``accounts.services``), so the
    games and tournaments it took part in stay readable and show "deleted player".
    """

    class BotLevel(models.TextChoices):
        RANDOM = "random", _("random")
        EASY = "easy", _("easy")
        MEDIUM = "medium", _("medium")
        STRONG = "strong", _("strong")

    display_name = models.CharField(
        _("display name"), max_length=DISPLAY_NAME_MAX_LENGTH, validators=display_name_validators
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_level = models.CharField(
        _("bot level"), max_length=16, choices=BotLevel.choices, blank=True, default=""
    )
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="accounts_user_display_name_ci_unique",
                violation_error_message=_("This display name is already taken."),
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(is_bot=False, bot_level="")
                    | (models.Q(is_bot=True) & ~models.Q(bot_level=""))
                ),
                name="accounts_user_bot_level_iff_bot",
            ),
        ]

    def __str__(self) -> str:
        return self.public_name

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def public_name(self) -> str:
        """The name to show to other players."""
        return gettext("deleted player") if self.is_deleted else self.display_name

    def get_absolute_url(self) -> str:
        return reverse("accounts:profile", args=[self.pk])


class Rating(models.Model):
    """A user's Elo rating in one pool (``"<variant>:<kind>"``, see ``accounts.ratings``).

    Written only by ``accounts.ratings.match_rate`` (and the recompute command), always together
    with the ``RatingChange`` rows that explain it, so the rating is the sum of its history.
    """

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("user")
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
    ``accounts.ratings``'s docstring), which ``recompute_ratings`` replays; the unique
    ``(match, user)`` is the last line of defence against a task delivered twice.
    """

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("user")
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
