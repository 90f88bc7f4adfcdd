"""Tournaments in the admin: read mostly. Running an event goes through the site's pages (and
``tournaments.services``), so the admin cannot advance a bracket behind the services' back."""

from django.contrib import admin

from tournaments.models import Entry, Pairing, PairingPlayer, ResultCorrection, Round, Tournament


class EntryInline(admin.TabularInline[Entry, Tournament]):
    model = Entry
    extra = 0
    fields = ("player", "seed", "seed_rating", "checked_in", "state", "place")
    readonly_fields = fields
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ("name", "format", "status", "organiser", "starts_at", "rated", "winner")
    list_filter = ("status", "format", "rated")
    search_fields = ("name", "organiser__display_name")
    readonly_fields = ("status", "draw_seed", "version", "started_at", "finished_at", "winner")
    raw_id_fields = ("organiser",)
    inlines = [EntryInline]


class PairingPlayerInline(admin.TabularInline[PairingPlayer, Pairing]):
    model = PairingPlayer
    extra = 0
    readonly_fields = ("position", "user", "place")
    can_delete = False


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin[Pairing]):
    list_display = ("__str__", "tournament", "status", "score", "winner", "forfeit")
    list_filter = ("status",)
    readonly_fields = ("tournament", "round", "board", "slot", "table", "status", "score", "winner", "fool")
    inlines = [PairingPlayerInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ("__str__", "tournament", "number", "final", "finished")


@admin.register(ResultCorrection)
class ResultCorrectionAdmin(admin.ModelAdmin[ResultCorrection]):
    list_display = ("pairing", "by", "at", "reason")
    readonly_fields = ("pairing", "by", "before", "after", "reason", "at")
