"""``{% load learn %}{% learn_panel %}``: the home page's "Learn to play" panel for a newcomer (a
visitor, or an account with few finished games), with their progress through the lessons; nothing
for anyone else, or once every lesson is finished."""

from typing import Any

from django import template

from learn.selectors import is_newcomer, progress_of, summary

register = template.Library()


@register.inclusion_tag("learn/_home_panel.html", takes_context=True)
def learn_panel(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    if request is None or not is_newcomer(request.user):
        return {"show": False}
    progress = summary(progress_of(request.user, request.session))
    return {"show": progress.next_lesson is not None, "summary": progress}
