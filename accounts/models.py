"""The club's user: a public display name, bot accounts, and deletion that keeps history readable."""

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import MinLengthValidator, RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .names import capitals_skeleton, invisible_characters, normalise, skeleton

DISPLAY_NAME_MAX_LENGTH = 32
#: Room for the skeleton of the longest name (compatibility forms can spell one character as several).
DISPLAY_NAME_KEY_MAX_LENGTH = 255


def validate_visible(name: str) -> None:
    """Refuse characters that draw nothing (zero-width spaces, direction marks, Hangul fillers...)."""
    found = invisible_characters(name)
    if found:
        raise ValidationError(
            _("Display names cannot contain invisible or formatting characters (%(found)s)."),
            code="invisible",
            params={"found": ", ".join(found)},
        )


def validate_normalised(name: str) -> None:
    """Refuse spaces the signup form would have folded (the admin stores what staff typed)."""
    if name != normalise(name):
        raise ValidationError(_("Use single spaces between words, none at either end."), code="spaces")


def capitals_key(name: str) -> str:
    """``User.display_name_capitals_key`` of ``name``: its skeleton in capitals, cut to the column
    (capitals can be longer than the name: "ß" is "SS")."""
    return capitals_skeleton(name)[:DISPLAY_NAME_KEY_MAX_LENGTH]


def _kept(stored: str, key: str) -> str:
    """The key to store for a name whose key is ``key``: ``stored`` when it is ``key`` marked with
    an older twin's ``#<pk>`` (``User.save``), else ``key``."""
    return stored if stored.rpartition("#")[0] == key else key


def validate_key_length(name: str) -> None:
    if len(skeleton(name)) > DISPLAY_NAME_KEY_MAX_LENGTH:
        raise ValidationError(_("This display name is too long."), code="too_long")


display_name_validators: list[Callable[[str], None]] = [
    validate_visible,
    validate_normalised,
    MinLengthValidator(2),
    RegexValidator(
        r"^\w[\w .\-]*\w\Z",
        _("Use letters, digits, spaces, dots, dashes and underscores; start and end with a letter or digit."),
    ),
    validate_key_length,
]


#: The levels of the club's own bots, each with an account made by ``manage.py ensure_bots``.
BUILT_IN_BOT_LEVELS = ("random", "easy", "medium", "strong")


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
        #: A bot account an outside program plays through the Bot API (``botapi``): the club's
        #: workers never move for it, except as the autopilot of a seat that timed out.
        PROGRAM = "program", _("program")

    display_name = models.CharField(
        _("display name"), max_length=DISPLAY_NAME_MAX_LENGTH, validators=display_name_validators
    )
    display_name_changed_at = models.DateTimeField(
        _("display name changed"),
        null=True,
        blank=True,
        help_text=_("When the player last changed their display name (once in 30 days)."),
    )
    display_name_key = models.CharField(
        _("display name skeleton"),
        max_length=DISPLAY_NAME_KEY_MAX_LENGTH,
        default="",
        editable=False,
        help_text=_(
            "What the display name looks like (accounts.names.skeleton): unique, so no two names look alike."
        ),
    )
    display_name_capitals_key = models.CharField(
        _("display name skeleton in capitals"),
        max_length=DISPLAY_NAME_KEY_MAX_LENGTH,
        default="",
        editable=False,
        help_text=_(
            "What the display name looks like in capitals (accounts.names.capitals_skeleton): "
            "unique too, so no name looks like another in any case."
        ),
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_level = models.CharField(
        _("bot level"), max_length=16, choices=BotLevel.choices, blank=True, default=""
    )
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True, editable=False)
    chat_free_text = models.BooleanField(
        _("free text in table chat"),
        default=False,
        help_text=_("Off: the table chat shows and sends quick phrases only."),
    )
    blind_mode = models.BooleanField(
        _("blind mode"),
        default=False,
        help_text=_("The match page read aloud and played by keys."),
    )

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="accounts_user_display_name_ci_unique",
                violation_error_message=_("This display name is already taken."),
            ),
            models.UniqueConstraint(
                fields=("display_name_key",),
                name="accounts_user_display_name_key_unique",
                violation_error_message=_("This display name looks too much like one already taken."),
            ),
            models.UniqueConstraint(
                fields=("display_name_capitals_key",),
                name="accounts_user_display_name_capitals_key_unique",
                violation_error_message=_("This display name looks too much like one already taken."),
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(is_bot=False, bot_level="") | (models.Q(is_bot=True) & ~models.Q(bot_level=""))
                ),
                name="accounts_user_bot_level_iff_bot",
            ),
        ]

    def __str__(self) -> str:
        return self.public_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Store the display name's skeletons with it (``display_name_key``, and the one in
        capitals, ``display_name_capitals_key``).

        A key that carries a ``#<pk>`` suffix belongs to a name that already looked like another
        when that key was introduced (migrations 0004 and 0009); it is kept while the name stays."""
        name = self.display_name
        self.display_name_key = _kept(self.display_name_key, skeleton(name))
        self.display_name_capitals_key = _kept(self.display_name_capitals_key, capitals_key(name))
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "display_name_key", "display_name_capitals_key"}
        super().save(*args, **kwargs)

    @property
    def is_program(self) -> bool:
        """A bot account played by an outside program through the Bot API."""
        return self.is_bot and self.bot_level == User.BotLevel.PROGRAM

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def public_name(self) -> str:
        """The name to show to other players."""
        return gettext("deleted player") if self.is_deleted else self.display_name

    def get_absolute_url(self) -> str:
        return reverse("club:profile", args=[self.pk])
