"""``{% daily_puzzle as daily %}``: the day's puzzle for the home page's panel."""

from __future__ import annotations

from django import template
from django.utils import timezone

from puzzles.models import Puzzle
from puzzles.selectors import daily

register = template.Library()


@register.simple_tag
def daily_puzzle() -> Puzzle | None:
    return daily(timezone.localdate())
