"""Reads of the lessons' progress: an account's in ``LessonProgress``, a visitor's in the session
(so it needs no account and no script, and lasts as long as the browser's session).

Both are read here and written by ``learn.services`` only, as ``{slug: Progress}``, so the pages
never ask which of the two they are showing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase

from accounts.models import User
from learn.lessons import BY_SLUG, LESSONS, Lesson
from learn.models import LessonProgress

#: The session key of a visitor's progress: ``{slug: [reached, done]}``.
SESSION_KEY = "learn_progress"
#: An account with fewer finished games than this is a newcomer: the home page offers the lessons.
NEWCOMER_GAMES = 10


@dataclass(frozen=True, slots=True)
class Progress:
    reached: int = 0
    done: bool = False


def progress_of(user: User | AnonymousUser, session: SessionBase) -> dict[str, Progress]:
    """Each lesson's progress for this learner (lessons not started are absent)."""
    if isinstance(user, User):
        rows = LessonProgress.objects.filter(user=user).values_list("lesson", "reached", "done")
        return {slug: Progress(reached, done) for slug, reached, done in rows if slug in BY_SLUG}
    stored = session.get(SESSION_KEY, {})
    if not isinstance(stored, dict):
        return {}
    return {
        slug: Progress(int(entry[0]), bool(entry[1]))
        for slug, entry in stored.items()
        if slug in BY_SLUG and isinstance(entry, list) and len(entry) == 2
    }


@dataclass(frozen=True, slots=True)
class Summary:
    """The learner's progress over all lessons, for the home page's panel and the lessons' list."""

    done: int
    total: int
    next_lesson: Lesson | None

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 100


def summary(progress: dict[str, Progress]) -> Summary:
    """How many lessons are finished and which one comes next."""
    done = sum(1 for lesson in LESSONS if progress.get(lesson.slug, Progress()).done)
    following = next((lesson for lesson in LESSONS if not progress.get(lesson.slug, Progress()).done), None)
    return Summary(done, len(LESSONS), following)


def is_newcomer(user: User | AnonymousUser) -> bool:
    """A visitor, or an account that has finished fewer than ``NEWCOMER_GAMES`` games."""
    if not isinstance(user, User):
        return True
    return (
        user.match_players.filter(match__finished_at__isnull=False)[:NEWCOMER_GAMES].count() < NEWCOMER_GAMES
    )
