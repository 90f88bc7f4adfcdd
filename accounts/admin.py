from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import Rating, RatingChange, User


@admin.register(User)
class UserAdmin(DjangoUserAdmin[User]):
    list_display = ("username", "display_name", "email", "is_bot", "bot_level", "is_staff",
                    "deleted_at")
    list_filter = ("is_bot", "bot_level", "is_staff", "is_active")
    search_fields = ("username", "display_name", "email")
    readonly_fields = ("deleted_at",)
    fieldsets = (
        *DjangoUserAdmin.fieldsets,  # type: ignore[misc]  # django-stubs: "| None"; UserAdmin sets it
        (_("Club"), {"fields": ("display_name", "is_bot", "bot_level", "deleted_at")}),
    )
    add_fieldsets = (
        *DjangoUserAdmin.add_fieldsets,
        (_("Club"), {"fields": ("display_name",)}),
    )


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    """Ratings are written only by ``accounts.ratings``; the admin shows them (and the recompute
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
