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
        return reverse("club:profile", args=[self.pk])
