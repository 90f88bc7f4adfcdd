"""``{% load match_fragments %}{% match_fragment "hand" %}``: a fragment of the match page drawn in
place by the same Jinja2 macro the socket pushes send (``play.fragments``), from the page's
``m`` and, for the fragments with forms, the request's CSRF input."""

from __future__ import annotations

from django import template
from django.template.backends.utils import csrf_input
from django.utils.safestring import SafeString, mark_safe
from markupsafe import Markup

from play.fragments import macros

register = template.Library()

#: The fragments whose forms post without the socket: they carry the page's CSRF input.
WITH_FORMS = frozenset({"result", "actions"})


@register.simple_tag(takes_context=True)
def match_fragment(context: template.Context, name: str) -> SafeString:
    drawn = getattr(macros(), name)
    if name == "error":
        fragment: Markup = drawn(context.get("error", ""), context.get("error_code", ""))
    elif name in WITH_FORMS:
        request = getattr(context, "request", None)
        fragment = drawn(context["m"], False, csrf_input(request) if request is not None else "")
    else:
        fragment = drawn(context["m"])
    return mark_safe(fragment)  # a Jinja2 macro's result is escaped markup already
