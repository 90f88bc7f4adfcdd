"""Admin pages for live play: read-mostly, for support staff looking into a table or a match.

Matches and moves are written only by ``games.live.services`` (the version and the move log must stay
in step), so their admin pages show them without letting staff edit the play.
"""

from django.contrib import admin

from games.models import Match, MatchPlayer, Move, Seat, Table


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ("id", "creator", "status", "rated", "private", "turn_seconds", "created")
    list_filter = ("status", "rated", "private")
    search_fields = ("creator__display_name",)
    raw_id_fields = ("creator",)
    inlines = (SeatInline,)


class MatchPlayerInline(admin.TabularInline[MatchPlayer, Match]):
    model = MatchPlayer
    extra = 0
    can_delete = False
    fields = ("seat", "user", "autopilot", "timeouts", "resigned", "forfeit_order", "place", "fool")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ("id", "table", "number", "status", "version", "started_at", "finished_at")
    list_filter = ("status",)
    readonly_fields = (
        "table",
        "number",
        "rules",
        "seed",
        "dealer",
        "status",
        "version",
        "snapshot",
        "deadline_at",
        "started_at",
        "finished_at",
        "result",
    )
    inlines = (MatchPlayerInline,)

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin[Move]):
    list_display = ("match", "seq", "seat", "action", "by", "at")
    list_filter = ("by",)
    readonly_fields = ("match", "seq", "seat", "action", "events", "by", "at")

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
