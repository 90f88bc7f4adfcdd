from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.utils.translation import gettext_lazy as _

from .forms import clean_display_name_value
from .models import User
from .names import normalise


class DisplayNameAdminMixin:
    """Staff choosing a display name meet the signup's rules: reserved names and names that
    look like a taken one are refused (the database's unique skeleton would otherwise answer
    with an error page). A name left as it was is not checked again: bots keep theirs."""

    cleaned_data: dict[str, object]
    changed_data: list[str]
    instance: User

    def clean_display_name(self) -> str:
        name = normalise(str(self.cleaned_data.get("display_name") or ""))
        if "display_name" in self.changed_data:
            clean_display_name_value(name, exclude_pk=self.instance.pk)
        return name


class ClubUserChangeForm(DisplayNameAdminMixin, UserChangeForm[User]):
    pass


class ClubUserCreationForm(DisplayNameAdminMixin, AdminUserCreationForm[User]):
    pass


@admin.register(User)
class UserAdmin(DjangoUserAdmin[User]):
    form = ClubUserChangeForm
    add_form = ClubUserCreationForm
    list_display = ("username", "display_name", "email", "is_bot", "bot_level", "is_staff", "deleted_at")
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
