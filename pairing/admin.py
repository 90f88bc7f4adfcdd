from django.contrib import admin

from .models import Alerts, Challenge, Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin[Seek]):
    list_display = (
        "user",
        "variant",
        "players",
        "teams",
        "deck",
        "turn_seconds",
        "rated",
        "status",
        "created",
    )
    list_filter = ("status", "variant", "rated")
    raw_id_fields = ("user", "table")


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin[Challenge]):
    list_display = ("challenger", "challenged", "variant", "status", "created", "expires_at")
    list_filter = ("status",)
    raw_id_fields = ("challenger", "challenged", "table")


@admin.register(Alerts)
class AlertsAdmin(admin.ModelAdmin[Alerts]):
    list_display = ("user", "browser", "sound")
    raw_id_fields = ("user",)
