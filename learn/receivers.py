"""What the lessons hear from the accounts: a visitor who signs up or signs in keeps the lessons
they did in this browser (``services.visitor_progress_carry``).

Both signals are heard: Django's ``user_logged_in`` (every sign-in, and a sign-up that signs in
at once) and allauth's ``user_signed_up`` (a sign-up that waits for the address to be confirmed
signs in only later, perhaps from another browser). The second of the two finds nothing left to
carry.
"""

from __future__ import annotations

from typing import Any

from allauth.account.signals import user_signed_up
from django.contrib.auth.signals import user_logged_in
from django.http import HttpRequest

from accounts.models import User
from learn.services import visitor_progress_carry


def carry_progress(sender: object, *, request: HttpRequest | None, user: object, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None and isinstance(user, User):
        visitor_progress_carry(user, session)


def connect() -> None:
    user_logged_in.connect(carry_progress, dispatch_uid="learn.carry_progress.logged_in")
    user_signed_up.connect(carry_progress, dispatch_uid="learn.carry_progress.signed_up")
