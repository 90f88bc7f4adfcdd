"""The quick phrases and emotes of the table chat: stored as codes, shown in each reader's language.

A code is the only thing a quick line stores, so a Russian reader sees «Удачи!» where an English
one sees "Good luck!" for the same line. The order here is the order of the buttons.
"""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

PHRASES: dict[str, Promise | str] = {
    "hello": _("Hello!"),
    "gl": _("Good luck!"),
    "thinking": _("Thinking…"),
    "nice": _("Nice move!"),
    "oops": _("Oops!"),
    "hurry": _("Your move, please."),
    "wp": _("Well played!"),
    "thanks": _("Thank you!"),
    "gg": _("Good game!"),
    "bye": _("Bye!"),
}

#: Emotes draw the same in every language (characters that common fonts have).
EMOTES: dict[str, str] = {
    "smile": "☺",
    "laugh": "😄",
    "wow": "😮",
    "sad": "😢",
    "heart": "♥",
}


def is_quick(code: str) -> bool:
    """Whether ``code`` names a quick phrase or an emote."""
    return code in PHRASES or code in EMOTES


def quick_text(code: str) -> str:
    """The phrase or emote of ``code`` in the active language (an unknown code as itself)."""
    if code in EMOTES:
        return EMOTES[code]
    return str(PHRASES.get(code, code))
