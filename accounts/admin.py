from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import User


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
