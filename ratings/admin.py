"""Ratings in the admin: shown, never edited (``ratings.services`` writes them, together with the
``RatingChange`` rows that explain them; ``manage.py recompute_ratings`` checks them)."""

from django.contrib import admin
from django.http import HttpRequest

from ratings.models import Rating, RatingChange, UnratedMatch


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    """Ratings are written only by ``ratings.services``; the admin shows them (and the recompute
    command checks them), it does not edit them."""

    list_display = ("user", "pool", "rating", "games", "wins", "fools", "draws", "best", "updated")
    list_filter = ("pool",)
    search_fields = ("user__display_name", "user__username")
    list_select_related = ("user",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = ("match", "user", "pool", "before", "delta", "after", "k", "outcome", "at")
    list_filter = ("pool", "outcome")
    search_fields = ("user__display_name", "user__username")
    list_select_related = ("user", "match")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(UnratedMatch)
class UnratedMatchAdmin(admin.ModelAdmin[UnratedMatch]):
    """Matches of rated tables that moved no rating, and why (``ratings.farming``): written by
    ``ratings.services.match_rate`` in place of the changes, shown here, never edited."""

    list_display = ("match", "reason", "at")
    list_filter = ("reason",)
    list_select_related = ("match",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
