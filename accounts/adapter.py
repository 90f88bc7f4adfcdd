"""allauth adapter: stores the display name as part of the user's first save."""

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest

from .models import User


class AccountAdapter(DefaultAccountAdapter):
    def save_user(
        self, request: HttpRequest, user: User, form: Any, commit: bool = True
    ) -> User:
        # Set before allauth's save: an empty name would collide with the unique constraint.
        user.display_name = form.cleaned_data["display_name"]
        saved: User = super().save_user(request, user, form, commit=commit)
        return saved
