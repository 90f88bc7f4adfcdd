"""Tournaments listen to the end of every match (``games.signals.match_finished``): one played at
a tournament's table moves its tournament on once the result is committed
(``tournaments.tasks.match_finished``, idempotent). To a game dealt at a tournament's table after
its wait for the players' values (``games.signals.match_dealt``): the tournament's page is told
(``tournaments.tasks.match_dealt``), so an arena player's page goes to the game. And to deleted accounts
(``accounts.signals.account_deleted``): every entry still in play is withdrawn, so the account is
never paired again (in a tournament under way its remaining games are forfeited, as for anyone
who withdraws)."""

from __future__ import annotations

import logging
from typing import Any

from accounts.models import User
from accounts.signals import account_deleted
from durak_site.tasks import enqueue_on_commit
from games.models import Match
from games.signals import match_dealt, match_finished
from tournaments import services, tasks
from tournaments.models import Entry

logger = logging.getLogger(__name__)


def advance_when_finished(sender: type[Match], *, match: Match, **kwargs: Any) -> None:
    """A match at a tournament's table ended: record it after the commit."""
    if getattr(match.table, "tournament_pairing", None) is not None:
        enqueue_on_commit(tasks.match_finished, match.pk)


def announce_when_dealt(sender: type[Match], *, match: Match, **kwargs: Any) -> None:
    """A game was dealt at a tournament's table later than its pairing: tell the page after the
    commit (a task, so the deal never waits for the tournament's lock)."""
    if getattr(match.table, "tournament_pairing", None) is not None:
        enqueue_on_commit(tasks.match_dealt, match.pk)


def withdraw_deleted_account(sender: type[User], *, user: User, **kwargs: Any) -> None:
    """Withdraw a deleted account from every tournament it is still in."""
    entries = Entry.objects.filter(player=user, state=Entry.State.ACTIVE)
    for tournament_id in entries.values_list("tournament_id", flat=True):
        try:
            services.entry_withdraw(tournament_id=tournament_id, user=user)
        except services.TournamentError as error:  # the tournament is over: its entry stays
            logger.info("deleted user %s stays in tournament %s: %s", user.pk, tournament_id, error)


def connect() -> None:
    """Called from ``TournamentsConfig.ready``."""
    match_finished.connect(
        advance_when_finished, sender=Match, dispatch_uid="tournaments.advance_when_finished"
    )
    match_dealt.connect(announce_when_dealt, sender=Match, dispatch_uid="tournaments.announce_when_dealt")
    account_deleted.connect(
        withdraw_deleted_account, sender=User, dispatch_uid="tournaments.withdraw_deleted_account"
    )
