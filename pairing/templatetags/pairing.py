"""``{% pairing_grid %}``: the quick-pairing grid with its live counts, for any page (the home
page and the lobby include ``pairing/_grid_live.html``, which calls it), and
``{% pairing_alerts %}``: the viewer's alert settings for ``static/js/alerts.js``, and
``{% pairing_incoming %}``: the challenges waiting for their answer (``static/js/pairing.js``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from pairing.challenges import received_payload
from pairing.presenters import present_grid
from pairing.selectors import alerts_of, open_challenges

register = template.Library()


@register.inclusion_tag("pairing/_grid.html", takes_context=True)
def pairing_grid(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user: User | AnonymousUser = getattr(request, "user", None) or AnonymousUser()
    return present_grid(user) | {"request": request, "csrf_token": context.get("csrf_token")}


@register.simple_tag(takes_context=True)
def pairing_incoming(context: template.Context) -> list[dict[str, object]]:
    """The challenges waiting for the viewer's answer, as their pushes carried them: a page
    opened after the push (or whose socket was reconnecting) shows them all the same."""
    request = context.get("request")
    user: User | AnonymousUser = getattr(request, "user", None) or AnonymousUser()
    return [received_payload(c) for c in open_challenges(user=user) if c.challenged_id == user.pk]


@register.simple_tag(takes_context=True)
def pairing_alerts(context: template.Context) -> dict[str, bool]:
    request = context.get("request")
    user: User | AnonymousUser = getattr(request, "user", None) or AnonymousUser()
    alerts = alerts_of(user)
    return {"browser": alerts.browser, "sound": alerts.sound}
