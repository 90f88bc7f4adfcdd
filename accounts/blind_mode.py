"""Blind mode: the match page played with the keyboard and a screen reader (``docs/accessibility.md``).

A per-account setting (``User.blind_mode``) for a player, a cookie for a visitor; this module is
the one place that reads and writes either, so the match page and the settings agree. A visitor
who turned it on keeps it on the account they sign up or sign in to (:func:`carry`).
"""

from __future__ import annotations

from typing import Any

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
    """Store the choice: on the account, or in the visitor's cookie. An account turning it off
    also drops the browser's visitor cookie, which would otherwise turn it on again at the next
    sign-in from this browser (:func:`carry`)."""
    user = request.user
    if user.is_authenticated:
        if getattr(user, "blind_mode", None) != on:
            user.blind_mode = on
            user.save(update_fields=["blind_mode"])
        if not on and COOKIE in request.COOKIES:
            response.delete_cookie(COOKIE, samesite="Lax")
        return
    if on:
        response.set_cookie(COOKIE, "1", max_age=COOKIE_AGE, samesite="Lax", secure=request.is_secure())
    else:
        response.delete_cookie(COOKIE, samesite="Lax")


def carry(sender: object, *, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Turn blind mode on for an account signed up or signed in to from a browser whose visitor
    turned it on (Django's ``user_logged_in``, allauth's ``user_signed_up``): a blind player who
    chose the mode before having an account must not have to find the switch again, unseen.

    Only "on" is carried: a browser without the cookie made no choice, and leaves the account's
    own. Harmless twice."""
    if request is None or request.COOKIES.get(COOKIE) != "1" or getattr(user, "blind_mode", True):
        return
    user.blind_mode = True
    user.save(update_fields=["blind_mode"])
