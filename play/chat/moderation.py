"""The staff's actions on chat reports and on users, each logged with its reason.

``act`` is the one way a mute or a bar from rated play is made or lifted and the way a report is
settled: it writes the ``ModerationAction`` (who, whom, what, why, until when) with the sanction in
one transaction. The admin's "moderation action" form calls it; nothing else changes a sanction.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from durak_site.broadcast import group_send_on_commit
from people import services as people_services
from people.consumers import personal_group
from people.models import Sanction
from play.models import ChatReport, ModerationAction

from .services import ChatError

Kind = ModerationAction.Kind


def act(
    *,
    staff: User,
    user: User,
    kind: str,
    reason: str,
    until: datetime | None = None,
    report: ChatReport | None = None,
) -> ModerationAction:
    """Log and carry out one staff action; a report named with it is settled by it."""
    if not staff.is_staff:
        raise ChatError(_("Only staff moderate."))
    reason = reason.strip()
    if not reason:
        raise ChatError(_("Give the reason for the action."))
    if kind not in Kind.values:
        raise ChatError(_("There is no such action."))
    if report is not None and report.line.author_id != user.pk:
        raise ChatError(_("The report is about another user."))
    with transaction.atomic():
        sanction = None
        if kind == Kind.MUTE:
            sanction = people_services.sanction_impose(user_id=user.pk, kind=Sanction.Kind.MUTE, until=until)
        elif kind == Kind.BAR:
            sanction = people_services.sanction_impose(
                user_id=user.pk, kind=Sanction.Kind.RATED_BAR, until=until
            )
        elif kind == Kind.UNMUTE:
            people_services.sanctions_lift(user_id=user.pk, kind=Sanction.Kind.MUTE)
        elif kind == Kind.UNBAR:
            people_services.sanctions_lift(user_id=user.pk, kind=Sanction.Kind.RATED_BAR)
        action = ModerationAction.objects.create(
            staff=staff, user=user, kind=kind, reason=reason, until=until, report=report, sanction=sanction
        )
        if kind == Kind.MUTE and until is not None:
            # Told at once on any page they have open (people's personal socket; the chat shows
            # it, and the chat panel says it again on every match page until then).
            group_send_on_commit(
                personal_group(user.pk),
                {"type": "personal.event", "payload": {"kind": "chat.muted", "until": until.isoformat()}},
            )
        if report is not None:
            ChatReport.objects.filter(
                line__author=user, line__match_id=report.line.match_id, settled_at__isnull=True
            ).update(settled_at=timezone.now())
    return action
