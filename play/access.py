"""Who may watch, play and chat at a table: the rules written once (Zulip's ``access_*``).

Views, consumers, selectors and services ask here and nowhere else, so the page, the socket, the
chat, a review and a friend's list cannot disagree about who sees a match. Each function reads
nothing but what it is given (the table with its seats, the match's players), so it costs no
query of its own.

- A table open to watch (``Table.open_to_watch``: a public one, or a tournament's) is anyone's to
  watch; a private one is for its creator and its players, and its page also for whoever holds
  the invite link (``may_see_table``).
- A seat at a private table takes the invite link, unless the table is the taker's own
  (``may_sit``).
- People chat; the club's bots never do, a program's bot account says quick phrases through the
  Bot API (``may_chat``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.models import Match, MatchPlayer, Table


def may_watch(match: Match, players: Iterable[MatchPlayer], user: User | AnonymousUser) -> bool:
    """Whether ``user`` may see ``match`` (whose players are ``players``) at all: anyone at a
    table open to watch; at a private table only its creator and the match's players."""
    if match.table.open_to_watch:
        return True
    if not user.is_authenticated:
        return False
    return match.table.creator_id == user.pk or any(p.user_id == user.pk for p in players)


def may_see_table(table: Table, user: User | AnonymousUser, token: str) -> bool:
    """Whether ``user`` may see ``table``'s page (``token``: the invite token the request carries,
    or ``""``): a table open to watch, or a private one's creator, seated players and invitees."""
    if table.open_to_watch or (token and token == table.invite_token):
        return True
    if not user.is_authenticated:
        return False
    return table.creator_id == user.pk or any(s.user_id == user.pk for s in table.seats.all())


def may_sit(table: Table, user: User, invite_token: str | None) -> bool:
    """Whether ``user`` may take a seat at ``table`` as far as its privacy goes (the bars from
    rated play are ``services.playban``'s)."""
    return not table.private or invite_token == table.invite_token or table.creator_id == user.pk


def may_chat(user: User | AnonymousUser) -> bool:
    """Whether ``user`` may say anything in a match's chat it may watch (anonymous readers only
    read the spectators' room)."""
    return isinstance(user, User) and (not user.is_bot or user.is_program)
