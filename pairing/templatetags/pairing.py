"""``{% pairing_grid %}``: the quick-pairing grid with its live counts, for any page (the home
page and the lobby include ``pairing/_grid_live.html``, which calls it), and
``{% pairing_alerts %}``: the viewer's alert settings for ``static/js/alerts.js``."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from pairing.presenters import present_grid
from pairing.selectors import alerts_of

register = template.Library()


@register.inclusion_tag("pairing/_grid.html", takes_context=True)
def pairing_grid(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user: User | AnonymousUser = getattr(request, "user", None) or AnonymousUser()
    return present_grid(user) | {"request": request, "csrf_token": context.get("csrf_token")}


@register.simple_tag(takes_context=True)
def pairing_alerts(context: template.Context) -> dict[str, bool]:
    request = context.get("request")
    user: User | AnonymousUser = getattr(request, "user", None) or AnonymousUser()
    alerts = alerts_of(user)
    return {"browser": alerts.browser, "sound": alerts.sound}
