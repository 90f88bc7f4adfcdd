"""A chat line as one reader sees it: in their language, and not at all when its author and the
reader blocked one another, or when it is free text and the reader keeps free text off."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from people import selectors as people_selectors
from play.models import ChatLine

from . import phrases
from .selectors import Seating


@dataclass(frozen=True)
class Reader:
    """Who reads a room: their id (``None`` when anonymous), whom they must not hear, whether
    they read free text, whether they may report and, for the panel, what they may send."""

    user_id: int | None
    hidden: frozenset[int]
    free_text: bool
    may_speak: bool
    may_type: bool
    muted_until: datetime | None


@dataclass(frozen=True)
class ShownLine:
    id: int
    name: str
    seat: int | None
    text: str
    quick: bool
    mine: bool
    may_report: bool


def reader_for(user: User | AnonymousUser, seat: Seating) -> Reader:
    if not isinstance(user, User):
        return Reader(None, frozenset(), False, False, False, None)
    free_text = bool(user.chat_free_text)
    return Reader(
        user_id=user.pk,
        hidden=frozenset(people_selectors.blocked_ids(user.pk)),
        free_text=free_text,
        may_speak=seat.may_speak,
        may_type=seat.may_speak and free_text and not seat.tournament,
        muted_until=people_selectors.muted_until(user.pk),
    )


def replay_reader(user: User | AnonymousUser) -> Reader:
    """A reader of a finished match's chat (the replay): their blocks and free-text setting hold,
    and nothing is sent or reported from there."""
    if not isinstance(user, User):
        return Reader(None, frozenset(), False, False, False, None)
    hidden = frozenset(people_selectors.blocked_ids(user.pk))
    return Reader(user.pk, hidden, bool(user.chat_free_text), False, False, None)


def present_line(line: ChatLine, reader: Reader) -> ShownLine | None:
    """``None`` when this reader does not see the line."""
    if line.author_id in reader.hidden:
        return None
    if line.text and not reader.free_text and line.author_id != reader.user_id:
        return None
    mine = line.author_id == reader.user_id
    return ShownLine(
        id=line.pk,
        name=str(line.author.public_name),
        seat=line.seat,
        text=phrases.quick_text(line.phrase) if line.phrase else line.text,
        quick=bool(line.phrase),
        mine=mine,
        may_report=reader.may_speak and not mine,
    )


def present_lines(lines: list[ChatLine], reader: Reader) -> list[ShownLine]:
    return [shown for shown in (present_line(line, reader) for line in lines) if shown is not None]


def quick_buttons() -> list[tuple[str, str]]:
    """(code, text) of every quick phrase and emote, in the active language."""
    return [(code, phrases.quick_text(code)) for code in [*phrases.PHRASES, *phrases.EMOTES]]
