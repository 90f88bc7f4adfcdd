"""A learner's progress through one lesson: kept for an account here, and for a visitor in the
session (``learn.progress``)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LessonProgress(models.Model):
    """How far an account got in a lesson: the steps answered (``reached``) and whether it ended.

    Lessons are data (``learn.lessons``), so the lesson is its slug; a slug no longer in the data
    is simply not shown."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="lesson_progress",
        verbose_name=_("user"),
    )
    lesson = models.CharField(_("lesson"), max_length=40)
    reached = models.PositiveSmallIntegerField(_("steps answered"), default=0)
    done = models.BooleanField(_("finished"), default=False)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("lesson progress")
        verbose_name_plural = _("lesson progress")
        constraints = [models.UniqueConstraint(fields=["user", "lesson"], name="learn_progress_unique")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.lesson} {self.reached}"
