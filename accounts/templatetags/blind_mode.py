"""``{% blind_mode as blind %}``: whether the page's viewer plays in blind mode
(``accounts.blind_mode``)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts import blind_mode as mode

register = template.Library()


@register.simple_tag(takes_context=True)
def blind_mode(context: dict[str, Any]) -> bool:
    request = context.get("request")
    return request is not None and mode.wanted(request)
