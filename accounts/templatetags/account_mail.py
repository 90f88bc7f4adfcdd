"""``{% load account_mail %}``: ``messages|mail_failed`` says whether a mail of this request (or of
the one that redirected here) could not be sent (``accounts.adapter.AccountAdapter.send_mail``)."""

from collections.abc import Iterable

from django import template
from django.contrib.messages.storage.base import Message

from accounts.adapter import MAIL_FAILED_TAG

register = template.Library()


@register.filter
def mail_failed(messages: Iterable[Message] | None) -> bool:
    return any(MAIL_FAILED_TAG in message.tags.split() for message in messages or ())
