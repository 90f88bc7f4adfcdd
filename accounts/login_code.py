"""The sign-in code request form (``ACCOUNT_FORMS["request_login_code"]``).

allauth refuses a code request past ``ACCOUNT_RATE_LIMITS["request_login_code"]`` with the same
error as the password lockout, whose message (``accounts.adapter``) tells the player to ask for a
code: on the code page that would send them in a circle. This form says what happened instead.
"""

from __future__ import annotations

from allauth.account.forms import RequestLoginCodeForm
from django import forms
from django.utils.translation import gettext_lazy as _

TOO_MANY = "too_many_login_attempts"


class LimitedRequestLoginCodeForm(RequestLoginCodeForm):
    def clean_email(self) -> str:
        try:
            email: str = super().clean_email()
        except forms.ValidationError as error:
            if error.code == TOO_MANY:
                raise forms.ValidationError(
                    _("Too many sign-in codes were asked for just now. Try again in a few minutes."),
                    code=TOO_MANY,
                ) from None
            raise
        return email
