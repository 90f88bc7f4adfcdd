"""Blind mode: the match page played with the keyboard and a screen reader (``docs/accessibility.md``).

A per-account setting (``User.blind_mode``) for a player, a cookie for a visitor; this module is
the one place that reads and writes either, so the match page and the settings agree.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

#: The visitor's cookie ("1" is on); a year, like the language cookie's choice of the same kind.
COOKIE = "durak_blind"
COOKIE_AGE = 365 * 24 * 3600


def wanted(request: HttpRequest) -> bool:
    """Whether ``request``'s viewer plays in blind mode."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return bool(getattr(user, "blind_mode", False))
    return request.COOKIES.get(COOKIE) == "1"


def remember(request: HttpRequest, response: HttpResponse, *, on: bool) -> None:
    """Store the choice: on the account, or in the visitor's cookie."""
    user = request.user
    if user.is_authenticated:
        if getattr(user, "blind_mode", None) != on:
            user.blind_mode = on
            user.save(update_fields=["blind_mode"])
        return
    if on:
        response.set_cookie(COOKIE, "1", max_age=COOKIE_AGE, samesite="Lax", secure=request.is_secure())
    else:
        response.delete_cookie(COOKIE, samesite="Lax")
