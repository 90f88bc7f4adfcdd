"""Admin pages for live play: read-mostly, for support staff looking into a table or a match.

Matches and moves are written only by ``play.services`` (the version and the move log must stay
in step), so their admin pages show them without letting staff edit the play.

Staff play too, so a match's secrets stay hidden from everyone while it is played, the admin and
superusers included: the seed (it determines the whole deal), the server seed and the players'
values it was derived from, and the snapshot (every hand and the order of the stock); a table's
next server seed is never shown, and players' values for the next deal have no admin page.
Their fields are left off the page of a match in play, and no lookup in the
admin's query string may filter on them (``?seed__startswith=`` would read the seed out a
character at a time). Once the match is over both are shown, as the public replay shows them.
The move log holds only public events (what everyone at the table saw), and the players' inline
only public standing.
"""

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.models import Match, MatchPlayer, Move, RatedQuit, Seat, Table

#: Fields of a match that give the game away while it is played.
SECRET_FIELDS = ("seed", "snapshot", "server_seed", "contributions")


def touches_secrets(lookup: str) -> bool:
    """Whether an admin query-string lookup (``seed__startswith``, ``match__snapshot__hands``...)
    reads a match's secret fields, from a match or through a relation to one."""
    return any(part in SECRET_FIELDS for part in lookup.split("__"))


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
    #: The next deal's server seed is secret until the match it deals is over (``games.seeding``).
    exclude = ("server_seed",)
    inlines = (SeatInline,)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        return not touches_secrets(lookup) and super().lookup_allowed(lookup, value, request)


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
    #: What every match's page shows; the secrets join them once the match is over.
    public_fields = (
        "table",
        "number",
        "rules",
        "dealer",
        "status",
        "version",
        "last_seq",
        "deadline_at",
        "started_at",
        "finished_at",
        "result",
    )
    readonly_fields = (*public_fields, *SECRET_FIELDS, "secrets_hidden")
    inlines = (MatchPlayerInline,)

    def get_fields(self, request: HttpRequest, obj: Match | None = None) -> tuple[str, ...]:
        if obj is not None and not obj.is_active:
            return (*self.public_fields, *SECRET_FIELDS)
        return (*self.public_fields, "secrets_hidden")

    @admin.display(description=_("seed and snapshot"))
    def secrets_hidden(self, obj: Match) -> str:
        return str(_("Hidden while the match is played: they hold the deal, every hand and the stock."))

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        return not touches_secrets(lookup) and super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Match | None = None) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin[Move]):
    list_display = ("match", "seq", "seat", "action", "by", "at")
    list_filter = ("by",)
    readonly_fields = ("match", "seq", "seat", "action", "events", "by", "at")

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        return not touches_secrets(lookup) and super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Move | None = None) -> bool:
        return False


@admin.register(RatedQuit)
class RatedQuitAdmin(admin.ModelAdmin[RatedQuit]):
    """The deal-fishing ledger (``play.services.playban``), for staff to look into a bar."""

    list_display = ("user", "match", "aborted", "at")
    list_filter = ("aborted",)
    search_fields = ("user__display_name",)
    raw_id_fields = ("user", "match")
    readonly_fields = ("user", "match", "aborted", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RatedQuit | None = None) -> bool:
        return False
