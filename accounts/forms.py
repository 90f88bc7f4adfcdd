"""Forms for the account pages."""

from typing import Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import DISPLAY_NAME_MAX_LENGTH, User, display_name_validators
from .names import normalise
from .services import display_name_is_lookalike, display_name_is_reserved, display_name_is_taken


class DisplayNameField(forms.CharField):
    """A display name, normalised (NFC, single spaces) before the validators see it."""

    def to_python(self, value: Any) -> str:
        return normalise(str(super().to_python(value)))


def clean_display_name_value(name: str, *, exclude_pk: int | None = None) -> str:
    """Refuse a reserved name, a taken one and one that looks like a taken one."""
    if display_name_is_reserved(name):
        raise forms.ValidationError(_("This display name is reserved."), code="reserved")
    if display_name_is_lookalike(name, exclude_pk=exclude_pk):
        raise forms.ValidationError(
            _("This display name looks too much like one already taken."), code="lookalike"
        )
    if display_name_is_taken(name, exclude_pk=exclude_pk):
        raise forms.ValidationError(_("This display name is already taken."), code="taken")
    return name


class DisplayNameSignupForm(forms.Form):
    """The extra field of allauth's signup form (``ACCOUNT_SIGNUP_FORM_CLASS``)."""

    display_name = DisplayNameField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        validators=display_name_validators,
        help_text=_(
            "The name other players see: letters, digits, spaces, dots, dashes and underscores; "
            "it starts and ends with a letter or digit."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    def clean_display_name(self) -> str:
        return clean_display_name_value(self.cleaned_data["display_name"])

    def signup(self, request: HttpRequest, user: User) -> None:
        """Required by allauth; the adapter already stored the display name before the first save."""


class DisplayNameChangeForm(forms.Form):
    """A new display name, under the same rules as at signup (the player's own name excepted)."""

    display_name = DisplayNameField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        validators=display_name_validators,
        help_text=_(
            "The name other players see: letters, digits, spaces, dots, dashes and underscores; "
            "it starts and ends with a letter or digit. You may change it once in 30 days."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_display_name(self) -> str:
        return clean_display_name_value(self.cleaned_data["display_name"], exclude_pk=self.user.pk)


class DeleteAccountForm(forms.Form):
    """Asks for the password once more before an account is anonymised."""

    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput)

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("The password is not correct."), code="wrong_password")
        return password
