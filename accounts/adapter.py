"""allauth adapter: stores the display name as part of the user's first save (and tells the
person, instead of failing, when the database refuses it), keeps generated usernames out of the
site's own namespaces, and survives a mail server that does not answer."""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context
from allauth.core.exceptions import ImmediateHttpResponse
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import User
from .services import display_name_is_taken

logger = logging.getLogger(__name__)

#: Usernames the site gives its own accounts: bots (``bot-easy-2``), deleted accounts
#: (``deleted-17``) and the local demo user. allauth makes a member's username from the email's
#: local part, so "bot-easy-3@example.org" would otherwise become ``bot-easy-3``, the very
#: account the site looks up when it seats a third easy bot.
RESERVED_USERNAME_PREFIXES = ("bot-", "deleted-")
RESERVED_USERNAMES = frozenset({"bot", "deleted", "demo"})

#: The request attribute that records a mail this request failed to send.
MAIL_FAILED = "_durak_mail_failed"
#: The tag of the message that says so (templates show their text accordingly).
MAIL_FAILED_TAG = "mail-failed"


def user_display(user: User) -> str:
    """How allauth names a user in its messages ("Successfully signed in as …"): the display
    name people chose, not the username made from their email (``ACCOUNT_USER_DISPLAY``)."""
    return str(user.public_name)


def username_is_reserved(username: str) -> bool:
    lowered = username.lower()
    return lowered in RESERVED_USERNAMES or lowered.startswith(RESERVED_USERNAME_PREFIXES)


class AccountAdapter(DefaultAccountAdapter):
    #: The lockout's message points the owner to the way in it cannot close (a code by email).
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": gettext_lazy(
            "Too many failed login attempts. Try again later, or ask for a sign-in code by email: "
            "it works at once."
        ),
    }

    def save_user(self, request: HttpRequest, user: User, form: Any, commit: bool = True) -> User:
        """Save the new account with its display name (set before allauth's save: an empty name
        would collide with the unique constraint).

        The form checked the name, but two people can send the same name, or two look-alikes, at
        the same instant, and then the unique indexes refuse the second (``User.Meta``): the
        person is sent back to the form with a message saying so (allauth's middleware answers
        ``ImmediateHttpResponse``), and nothing is created."""
        user.display_name = form.cleaned_data["display_name"]
        try:
            with transaction.atomic():
                saved: User = super().save_user(request, user, form, commit=commit)
        except IntegrityError:
            logger.info("a signup lost a race for its display name or username", exc_info=True)
            if display_name_is_taken(user.display_name):
                messages.error(request, _("This display name was taken a moment ago. Please choose another."))
            else:
                messages.error(request, _("Your account could not be created just now. Please try again."))
            raise ImmediateHttpResponse(redirect(request.get_full_path())) from None
        return saved

    def generate_unique_username(self, txts: list[str | None], regex: str | None = None) -> str:
        username: str = super().generate_unique_username(txts, regex)
        if username_is_reserved(username):
            username = super().generate_unique_username(["player"], regex)
        return username

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """Send as allauth does; when the mail server fails, tell the person instead of failing
        the request. Whatever the mail was for (a new account, a password reset) is kept, and
        allauth's own pages send it again (``account_email``, the reset form, the next login)."""
        try:
            super().send_mail(template_prefix, email, context)
        except (smtplib.SMTPException, OSError):
            logger.warning("could not send the %s mail", template_prefix, exc_info=True)
            request = context.get("request") or _current_request()
            if request is not None and not getattr(request, MAIL_FAILED, False):
                setattr(request, MAIL_FAILED, True)
                messages.error(request, _mail_failed_message(template_prefix), extra_tags=MAIL_FAILED_TAG)

    def add_message(
        self,
        request: HttpRequest,
        level: int,
        message_template: str | None = None,
        message_context: dict[str, Any] | None = None,
        extra_tags: str = "",
        message: str | None = None,
    ) -> None:
        # "Confirmation email sent to ..." is not true when the mail server failed.
        if getattr(request, MAIL_FAILED, False) and message_template == (
            "account/messages/email_confirmation_sent.txt"
        ):
            return
        super().add_message(request, level, message_template, message_context, extra_tags, message)


def _current_request() -> HttpRequest | None:
    request: HttpRequest | None = getattr(context, "request", None)
    return request


def _mail_failed_message(template_prefix: str) -> str:
    if "email_confirmation" in template_prefix:
        return _(
            "The confirmation email could not be sent just now: the mail server did not answer. "
            "Your account is saved. In a few minutes, ask for the email again on the Email page "
            "(or log in again)."
        )
    return _(
        "The email could not be sent just now: the mail server did not answer. Nothing was "
        "changed; please try again in a few minutes."
    )
