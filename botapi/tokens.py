"""Making a token and finding its owner from an ``Authorization: Bearer`` header."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.http import HttpRequest
from django.utils import timezone

from accounts.models import User

from .models import ApiToken

PREFIX = "durak_"
#: ``last_used`` is written at most this often per token (not on every request of a stream).
LAST_USED_STEP = timedelta(minutes=1)


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def new_raw_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _space, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def token_user(request: HttpRequest, scope: str = ApiToken.Scope.BOT_PLAY) -> User | None:
    """The active user whose active token of ``scope`` the request carries, or ``None``."""
    raw = bearer(request)
    if raw is None or len(raw) > 200:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest(raw), revoked_at=None).first()
    if token is None or token.scope != scope:
        return None
    user = token.user
    if not user.is_active or user.is_deleted:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used > LAST_USED_STEP:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    return user
