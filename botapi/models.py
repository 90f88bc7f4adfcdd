"""Personal API tokens. Only a token's SHA-256 is stored: a token is 32 random bytes, so a hash
without salt or stretching is as strong as the token itself, and a leaked table lets nobody in."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    class Scope(models.TextChoices):
        #: Play the bot account's games: streams, moves, resigning.
        BOT_PLAY = "bot:play", _("play as a bot")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    scope = models.CharField(_("scope"), max_length=20, choices=Scope.choices, default=Scope.BOT_PLAY)
    #: ``sha256(token)`` in hex; the token itself is shown once, when it is made.
    digest = models.CharField(max_length=64, unique=True, editable=False)
    #: The token's first characters, so its owner can tell tokens apart.
    prefix = models.CharField(max_length=12, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
