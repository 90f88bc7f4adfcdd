"""Writes of the table chat: say a line, report one. Each refuses with a ``ChatError`` (a
``Refused``: its message is for the sender alone) and then changes nothing.

A said line is announced after its commit to its room's group as ``{"type": "chat.line",
"line": id}``: only the id crosses the channel layer, and every socket renders the line for its
own reader (their language, their blocks, their free-text setting).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.models import User
from durak_site.broadcast import group_send_on_commit
from durak_site.errors import Refused
from durak_site.windows import window_allows
from people import selectors as people_selectors
from play.models import TEXT_MAX_LENGTH, ChatLine, ChatReport

from . import phrases, selectors


class ChatError(Refused):
    """A chat request refused (muted, too fast, not allowed here...)."""


def room_group(match_id: int, room: str) -> str:
    """The channel-layer group of one room of a match's chat."""
    return f"chat-{match_id}-{room}"


def clean_text(raw: str) -> str:
    """Free text as stored: control and formatting characters dropped, runs of blanks folded."""
    kept = "".join(ch for ch in raw if unicodedata.category(ch)[0] != "C")
    return re.sub(r"\s+", " ", kept).strip()


def muted_message(until: datetime) -> str:
    """What a muted user is told: until when (an indefinite mute would read as the year 9999)."""
    when = formats.date_format(timezone.localtime(until), "DATETIME_FORMAT")
    return _("You are muted in chat until %(when)s.") % {"when": when}


def chat_say(*, match_id: int, user: User, phrase: str = "", text: str = "") -> ChatLine:
    """``user`` says a quick phrase (its code) or free text at the match, in their room."""
    seat = selectors.seating(match_id, user)
    if seat is None:
        raise ChatError(_("There is no such game."))
    if not seat.may_speak:
        raise ChatError(_("Log in to chat."))
    until = people_selectors.muted_until(user.pk)
    if until is not None:
        raise ChatError(muted_message(until))
    if phrase:
        if not phrases.is_quick(phrase):
            raise ChatError(_("There is no such quick phrase."))
        text = ""
    else:
        if seat.tournament:
            raise ChatError(_("Only quick phrases are said in tournament games."))
        if not user.chat_free_text:
            raise ChatError(_("Turn free text on in your chat settings to write your own lines."))
        text = clean_text(text)
        if not text:
            raise ChatError(_("Say something first."))
        if len(text) > TEXT_MAX_LENGTH:
            raise ChatError(_("A line has at most %(count)d characters.") % {"count": TEXT_MAX_LENGTH})
    limit, window = settings.CHAT_USER_RATE
    if not window_allows(f"chat:lines:{user.pk}", limit=limit, window=window):
        raise ChatError(_("You are chatting too fast: wait a moment."))
    with transaction.atomic():
        line = ChatLine.objects.create(
            match_id=match_id, room=seat.room, author=user, seat=seat.seat, phrase=phrase, text=text
        )
        group_send_on_commit(room_group(match_id, seat.room), {"type": "chat.line", "line": line.pk})
    return line


def chat_report(*, line_id: int, user: User) -> ChatReport:
    """``user`` reports a line they can read (not their own); reporting it again is a no-op."""
    line = selectors.line_get(line_id)
    seat = selectors.seating(line.match_id, user) if line is not None else None
    if line is None or seat is None or seat.room != line.room or not seat.may_speak:
        raise ChatError(_("There is no such line."))
    if line.author_id == user.pk:
        raise ChatError(_("You cannot report your own line."))
    try:
        with transaction.atomic():
            report, _created = ChatReport.objects.get_or_create(line=line, reporter=user)
    except IntegrityError:  # the same report made at the same moment on another socket
        report = ChatReport.objects.get(line=line, reporter=user)
    return report
