"""Writes of the Bot API: turning an account into a bot account, tokens, and the moves a program
sends (through the same services as the sockets, so the same checks and the same refusals)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from durak_site.errors import Refused
from games import bots
from games.engine import Rules
from games.models import Match, MatchPlayer, Seat
from play.services import seats_fill_with_bots, table_create

from .models import ApiToken
from .tokens import digest, new_raw_token

#: How many live tokens one account may hold.
TOKEN_LIMIT = 5


class ApiRefused(Refused):
    default_message = _("The Bot API refused this request.")


def account_upgrade(user: User) -> None:
    """Make ``user`` a bot account played by an outside program (Lichess's rule: only an account
    that has never played, so no human's games and rating turn into a program's)."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.is_program:
            return
        if locked.is_bot:
            raise ApiRefused(_("The club's own bots cannot be upgraded."))
        if MatchPlayer.objects.filter(user=locked).exists() or Seat.objects.filter(user=locked).exists():
            raise ApiRefused(_("Only an account that has never played can become a bot account."))
        if locked.is_staff or locked.is_superuser:
            raise ApiRefused(_("A staff account cannot become a bot account."))
        locked.is_bot = True
        locked.bot_level = User.BotLevel.PROGRAM
        locked.save(update_fields=["is_bot", "bot_level"])
    user.is_bot, user.bot_level = locked.is_bot, locked.bot_level  # the caller's copy says so too


def token_create(user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``, a bot account; returns it with the raw token, shown to its owner
    this once. A human account gets none: a token would only read ``/api/account``, and a
    credential that does nothing is one more to leak."""
    if not user.is_program:
        raise ApiRefused(_("Only a bot account has API tokens: make this a bot account first."))
    name = " ".join(name.split())[:60] or str(_("my bot"))
    if ApiToken.objects.filter(user=user, revoked_at=None).count() >= TOKEN_LIMIT:
        raise ApiRefused(_("You have %(limit)d tokens: revoke one first.") % {"limit": TOKEN_LIMIT})
    raw = new_raw_token()
    token = ApiToken.objects.create(user=user, name=name, digest=digest(raw), prefix=raw[:12])
    return token, raw


def token_revoke(user: User, token_id: int) -> None:
    updated = ApiToken.objects.filter(user=user, pk=token_id, revoked_at=None).update(
        revoked_at=timezone.now()
    )
    if not updated:
        raise ApiRefused(_("There is no such token."))


def challenge_ai(
    user: User, *, variant: str, players: int, level: str, rated: bool, turn_seconds: int
) -> Match:
    """A table of the bot account and the club's bots of ``level`` on every other seat, dealt at
    once (Lichess's "challenge the AI")."""
    if level not in bots.LEVELS:
        raise ApiRefused(_("There is no bot of that level."))
    if rated:
        raise ApiRefused(_("A rated table is for people only: play bots at a casual table."))
    try:
        rules = Rules.for_variant(variant, players=players)
    except (ValueError, TypeError) as error:
        raise ApiRefused(_("These are not table rules: %(reason)s.") % {"reason": error}) from error
    with transaction.atomic():
        table = table_create(creator=user, rules=rules, rated=rated, turn_seconds=turn_seconds)
        seats_fill_with_bots(table_id=table.pk, user=user, level=level)
        return Match.objects.get(table=table)
