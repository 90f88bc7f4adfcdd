"""Writes of the lessons' progress (``learn.selectors`` reads it): an account's row, or a visitor's
session entry."""

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
        row, _created = LessonProgress.objects.get_or_create(user=user, lesson=lesson.slug)
        if number > row.reached or (done and not row.done):
            row.reached = max(row.reached, number)
            row.done = row.done or done
            row.save(update_fields=["reached", "done", "updated_at"])
        return Progress(row.reached, row.done)
    stored = session.get(SESSION_KEY)
    stored = stored if isinstance(stored, dict) else {}
    before = progress_of(user, session).get(lesson.slug, Progress())
    after = Progress(max(before.reached, number), before.done or done)
    stored[lesson.slug] = [after.reached, after.done]
    session[SESSION_KEY] = stored
    return after
