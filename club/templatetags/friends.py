"""``{% load friends %}{% friends_panel %}``: the small panel of followed players for any page
(the home page includes it in one line); it refreshes itself from ``club:friends_panel``."""

from typing import Any

from django import template

from club.friends import friends_of

register = template.Library()

#: How many friends the panel lists (the friends page has them all).
PANEL_SIZE = 8


@register.inclusion_tag("club/_friends_panel.html", takes_context=True)
def friends_panel(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    return {"show": True, "friends": friends_of(user)[:PANEL_SIZE]}
