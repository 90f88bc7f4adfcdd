"""The ties between players and their presence.

Presence is one row per open personal socket, in the database rather than in a process's memory:
with several daphnes behind the proxy a player's sockets live in different processes, and every
one of them must see the same answer to "is she online?".
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Follow(models.Model):
    """``follower`` follows ``followed``: the friends page and panel list who they follow."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="people_follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="people_follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower} → {self.followed}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: the two are never paired, challenged, seated or chatting
    together, whichever of them blocked the other."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="people_block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="people_block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} ⊘ {self.blocked}"


class Presence(models.Model):
    """One open personal socket (``/ws/me/``) of a signed-in user, refreshed by its heartbeat.

    A row whose ``seen`` is older than ``PRESENCE_TTL`` belongs to a socket whose process died
    without closing it: it no longer counts, and the user's next socket deletes it.
    """

    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presences")
    seen = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")

    def __str__(self) -> str:
        return f"{self.user} @ {self.channel_name}"


class Sanction(models.Model):
    """A staff measure against a user: a mute (no chat until ``until``) or a bar from rated play
    (until ``until``, or until lifted when it is empty).

    It lives here, on the people floor, because live play (``games``) enforces the bar when a rated
    table is joined or dealt and cannot import the apps above it. Staff never edit a sanction in
    the admin: they log a moderation action (``play.chat.moderation``) that makes or lifts one.
    """

    class Kind(models.TextChoices):
        MUTE = "mute", _("muted in chat")
        RATED_BAR = "rated_bar", _("barred from rated play")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    until = models.DateTimeField(_("until"), null=True, blank=True, help_text=_("Empty: until lifted."))
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        indexes = [models.Index(fields=["user", "kind"], name="people_sanction_user_kind")]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_kind_display()}"
