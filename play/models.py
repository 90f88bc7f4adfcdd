"""What the table chat stores: its lines, the reports of them, and the staff's logged actions.

The models moved here from ``games`` (``play.0001``, state only): their tables keep the names
they were created with (``Meta.db_table``), so no row moved.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: The longest free-text line (characters).
TEXT_MAX_LENGTH = 200


class ChatLine(models.Model):
    """One line said at a match, in the players' room or the spectators': a quick phrase (its
    code, rendered in each reader's language) or, for those who turned it on, free text."""

    class Room(models.TextChoices):
        PLAYERS = "players", _("players")
        SPECTATORS = "spectators", _("spectators")

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="chat_lines", verbose_name=_("match")
    )
    room = models.CharField(_("room"), max_length=16, choices=Room.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_lines",
        verbose_name=_("author"),
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=16, blank=True)
    text = models.CharField(_("text"), max_length=TEXT_MAX_LENGTH, blank=True)
    created = models.DateTimeField(_("said at"), auto_now_add=True)

    class Meta:
        ordering = ("match", "pk")
        db_table = "games_chatline"
        verbose_name = _("chat line")
        verbose_name_plural = _("chat lines")
        indexes = [models.Index(fields=["match", "room", "id"], name="games_chat_match_room")]
        constraints = [
            models.CheckConstraint(
                condition=(Q(phrase="") & ~Q(text="")) | (~Q(phrase="") & Q(text="")),
                name="games_chatline_phrase_xor_text",
            )
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.author}: {self.phrase or self.text}"


class ChatReport(models.Model):
    """A reader reported a line: it waits in the staff's queue until an action settles it."""

    line = models.ForeignKey(
        ChatLine, on_delete=models.CASCADE, related_name="reports", verbose_name=_("line")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_reports",
        verbose_name=_("reporter"),
    )
    created = models.DateTimeField(_("reported at"), auto_now_add=True)
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)

    class Meta:
        ordering = ("settled_at", "-created")
        db_table = "games_chatreport"
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [models.UniqueConstraint(fields=["line", "reporter"], name="games_chatreport_once")]

    def __str__(self) -> str:
        return f"{_('Report')} #{self.pk}"


class ModerationAction(models.Model):
    """One staff action, with its reason: the only way a mute or a bar is made or lifted, and the
    way a report is settled (``play.chat.moderation.act``). Never changed or deleted."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("mute in chat")
        UNMUTE = "unmute", _("lift the mute")
        BAR = "bar", _("bar from rated play")
        UNBAR = "unbar", _("lift the bar from rated play")
        DISMISS = "dismiss", _("dismiss the report")

    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("staff member")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="moderation_actions",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("action"), max_length=16, choices=Kind.choices)
    reason = models.TextField(_("reason"))
    until = models.DateTimeField(_("until"), null=True, blank=True)
    report = models.ForeignKey(
        ChatReport,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="actions",
        verbose_name=_("report"),
    )
    sanction = models.ForeignKey(
        "people.Sanction",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("sanction"),
    )
    created = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ("-created",)
        db_table = "games_moderationaction"
        verbose_name = _("moderation action")
        verbose_name_plural = _("moderation actions")
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="games_moderation_reason")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.user}"
