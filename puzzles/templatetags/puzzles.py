"""``{% daily_puzzle as daily %}``: the day's puzzle for the home page's panel; ``{{ text|move_words }}``:
a move of a puzzle's line in the reader's words.

A puzzle stores its line in the engine's notation (``cover 6S>AH``), which the move form posts
back as it is; a person reads the same move as ``games.words`` says it everywhere else on the
site, in their language.
"""

from __future__ import annotations

from django import template
from django.utils import timezone

from games.engine import Action, LegalMove
from games.words import action_label
from puzzles.models import Puzzle
from puzzles.selectors import daily

register = template.Library()


@register.simple_tag
def daily_puzzle() -> Puzzle | None:
    return daily(timezone.localdate())


@register.filter
def move_words(text: str) -> str:
    """A stored move (notation) as words: "Cover 6♠ with A♥", "Take"."""
    return action_label(LegalMove.from_fast(Action.parse(text).to_fast()))
