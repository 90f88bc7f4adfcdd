"""The staff's queue of chat reports and the log of their actions (registered by ``games.admin``).

A report's page shows the match, the reporter, the reported line and the lines around it in its
room, with links that open the action form prefilled (mute for a day, bar from rated play,
dismiss). Staff act only by adding a ``ModerationAction``: its form needs a reason and, for a
mute, an end; saving it calls ``moderation.act``, which makes or lifts the sanction and settles
the report. Actions are never changed or deleted; reports and lines are read-only.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from play.chat import moderation, phrases, selectors

from .models import ChatLine, ChatReport, ModerationAction


def line_words(line: ChatLine) -> str:
    return phrases.quick_text(line.phrase) if line.phrase else line.text


class ReadOnly:
    """Admin pages that show rows made elsewhere (by the chat's services)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ChatLine)
class ChatLineAdmin(ReadOnly, admin.ModelAdmin[ChatLine]):
    list_display = ("id", "match", "room", "author", "words", "created")
    list_filter = ("room",)
    search_fields = ("author__display_name", "text")
    list_select_related = ("author", "match")

    @admin.display(description=_("line"))
    def words(self, line: ChatLine) -> str:
        return line_words(line)


class Settled(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "settled"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("no", _("waiting")), ("yes", _("settled"))]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        if self.value() == "no":
            return queryset.filter(settled_at__isnull=True)
        if self.value() == "yes":
            return queryset.filter(settled_at__isnull=False)
        return queryset


@admin.register(ChatReport)
class ChatReportAdmin(ReadOnly, admin.ModelAdmin[ChatReport]):
    """The queue: waiting reports first."""

    list_display = ("id", "match_link", "author", "words", "reporter", "created", "settled_at")
    list_filter = (Settled,)
    list_select_related = ("line__author", "line__match", "reporter")
    fields = ("match_link", "reporter", "author", "created", "settled_at", "context", "act")
    readonly_fields = fields

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is not None and request.user.is_staff  # the page opens read-only (no save)

    @admin.display(description=_("match"))
    def match_link(self, report: ChatReport) -> SafeString:
        match_id = report.line.match_id
        return format_html('<a href="{}">#{}</a>', reverse("games:match", args=[match_id]), match_id)

    @admin.display(description=_("author"))
    def author(self, report: ChatReport) -> str:
        return str(report.line.author)

    @admin.display(description=_("line"))
    def words(self, report: ChatReport) -> str:
        return line_words(report.line)

    @admin.display(description=_("the chat around the line"))
    def context(self, report: ChatReport) -> SafeString:
        rows = [
            (
                "report-line" if line.pk == report.line_id else "",
                line.created.strftime("%H:%M:%S"),
                line.author,
                line_words(line),
            )
            for line in selectors.report_context(report)
        ]
        body = format_html_join("", '<li class="{}"><code>{}</code> <strong>{}</strong>: {}</li>', rows)
        return format_html(
            '<p>{}: {}</p><ol style="margin:0;padding-left:1.2rem">{}</ol>'
            "<style>.report-line{{background:#f6e2de;font-weight:600}}</style>",
            _("room"),
            report.line.get_room_display(),
            body,
        )

    @admin.display(description=_("act"))
    def act(self, report: ChatReport) -> SafeString:
        base = reverse("admin:play_moderationaction_add")
        author = report.line.author_id
        links = [
            (
                f"{base}?{urlencode({'report': report.pk, 'user': author, 'kind': kind, 'hours': hours})}",
                label,
            )
            for kind, hours, label in (
                (ModerationAction.Kind.MUTE, 24, _("Mute for a day")),
                (ModerationAction.Kind.MUTE, 24 * 7, _("Mute for a week")),
                (ModerationAction.Kind.BAR, "", _("Bar from rated play")),
                (ModerationAction.Kind.DISMISS, "", _("Dismiss the report")),
            )
        ]
        return format_html_join(" · ", '<a href="{}">{}</a>', links)


class ModerationActionForm(forms.ModelForm[ModerationAction]):
    """A reason always; a mute lasts ``hours`` (a bar without hours lasts until lifted)."""

    hours = forms.IntegerField(label=_("for how many hours"), min_value=1, max_value=24 * 365, required=False)

    class Meta:
        model = ModerationAction
        fields = ("user", "kind", "hours", "reason", "report")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind, hours = data.get("kind"), data.get("hours")
        if kind == ModerationAction.Kind.MUTE and not hours:
            self.add_error("hours", _("A mute lasts a number of hours."))
        if not (data.get("reason") or "").strip():
            self.add_error("reason", _("Give the reason for the action."))
        report, user = data.get("report"), data.get("user")
        if report is not None and user is not None and report.line.author_id != user.pk:
            self.add_error("report", _("The report is about another user."))
        return data


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin[ModerationAction]):
    """The log: add an action (with its reason) to act; nothing in it is changed or deleted."""

    form = ModerationActionForm
    list_display = ("created", "staff", "kind", "user", "until", "reason", "report")
    list_filter = ("kind",)
    search_fields = ("user__display_name", "staff__display_name", "reason")
    raw_id_fields = ("user", "report")
    list_select_related = ("staff", "user", "report")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ModerationAction, form: Any, change: bool) -> None:
        hours = form.cleaned_data.get("hours")
        until = timezone.now() + timedelta(hours=hours) if hours else None
        done = moderation.act(
            staff=request.user,  # type: ignore[arg-type]  # the admin's user is staff
            user=obj.user,
            kind=obj.kind,
            reason=obj.reason,
            until=until,
            report=obj.report,
        )
        obj.pk, obj.staff, obj.until, obj.created = done.pk, done.staff, done.until, done.created
