"""Writes of the lessons' progress (``learn.selectors`` reads it): an account's row, or a visitor's
session entry, and the visitor's entry carried to the account they sign up or sign in to."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase

from accounts.models import User
from learn.lessons import Lesson
from learn.models import LessonProgress
from learn.selectors import SESSION_KEY, Progress, progress_of


def step_answered(user: User | AnonymousUser, session: SessionBase, lesson: Lesson, number: int) -> Progress:
    """Record that step ``number`` (1-based) of ``lesson`` was answered right; the last step
    finishes the lesson. Progress never goes back: answering an earlier step again changes nothing."""
    done = number >= len(lesson.steps)
    if isinstance(user, User):
        return _advance(user, lesson.slug, Progress(number, done))
    stored = session.get(SESSION_KEY)
    stored = stored if isinstance(stored, dict) else {}
    before = progress_of(user, session).get(lesson.slug, Progress())
    after = Progress(max(before.reached, number), before.done or done)
    stored[lesson.slug] = [after.reached, after.done]
    session[SESSION_KEY] = stored
    return after


def visitor_progress_carry(user: User, session: SessionBase) -> int:
    """Give ``user``'s account the lessons a visitor did in this browser's ``session``, when they
    sign up or sign in (``learn.receivers``): each lesson at the further of the two places, and
    finished if either finished it. The session's entry is dropped, since the account's rows are
    what is read from now on. Returns how many lessons moved on; harmless twice (the second time
    the session holds nothing), and it never takes an account's progress back."""
    visited = progress_of(AnonymousUser(), session)
    before = progress_of(user, session)
    moved = 0
    for slug, progress in visited.items():
        moved += int(_advance(user, slug, progress) != before.get(slug, Progress()))
    session.pop(SESSION_KEY, None)
    return moved


def _advance(user: User, slug: str, progress: Progress) -> Progress:
    """Move the account's row of lesson ``slug`` on to ``progress``, never back; the row after."""
    row, _created = LessonProgress.objects.get_or_create(user=user, lesson=slug)
    if progress.reached > row.reached or (progress.done and not row.done):
        row.reached = max(row.reached, progress.reached)
        row.done = row.done or progress.done
        row.save(update_fields=["reached", "done", "updated_at"])
    return Progress(row.reached, row.done)
