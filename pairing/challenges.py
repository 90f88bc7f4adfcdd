"""Challenges: one player invites another to a two-player table; the other accepts or declines
on whatever page they are; a challenge not answered in ``CHALLENGE_SECONDS`` expires.

Blocked pairs cannot challenge each other (checked when sent and again when accepted), and a
player barred from rated play cannot send a rated challenge (the table refuses them too). The
answer locks the challenge row, so an accept and a cancel (or two accepts from two tabs) cannot
both win; an accepted challenge makes its table through ``play.services`` and takes both
players to the match after the commit.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Final

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from durak_site.errors import Refused
from games.models import Table
from pairing import push
from pairing.models import Challenge
from pairing.setups import Setup, SetupError
from people.selectors import blocked_between
from play import selectors as game_selectors
from play import services as games
from play.services import playban

#: How long a challenge waits for its answer.
CHALLENGE_SECONDS: Final = 90
#: At most this many challenges of one player wait for an answer at a time.
MAX_PENDING: Final = 3


class ChallengeError(Refused):
    default_message = _("This challenge is not possible.")


def challenge_send(*, challenger: User, challenged: User, setup: Setup) -> Challenge:
    """``challenger`` invites ``challenged`` to a two-player table of ``setup``."""
    if challenger.pk == challenged.pk:
        raise ChallengeError(_("You cannot challenge yourself."))
    # The club's bots are seated, not challenged; a program's bot account (the Bot API) answers
    # challenges, but does not send them.
    if (
        challenger.is_bot
        or (challenged.is_bot and not challenged.is_program)
        or challenged.deleted_at is not None
    ):
        raise ChallengeError(_("Only players can be challenged: sit down with bots at a table instead."))
    if setup.players != 2 or setup.teams:
        raise ChallengeError(_("A challenge is a game for two."))
    try:
        setup.rules()
    except SetupError:
        raise ChallengeError(_("No table can be made with these options.")) from None
    if blocked_between(challenger.pk, challenged.pk):
        raise ChallengeError(_("You cannot challenge this player."))
    if setup.rated:
        # Refused here, not only when the other player accepts: they would answer for nothing.
        try:
            playban.check_rated_allowed(challenger)
        except playban.RatedPlayBarred as error:
            raise ChallengeError(f"{error.message} {_('You may send a casual challenge.')}") from None
    now = timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=challenger.pk).first()  # one sender at a time
        pending = Challenge.objects.filter(
            challenger=challenger, status=Challenge.Status.PENDING, expires_at__gt=now
        )
        pending.filter(challenged=challenged).update(status=Challenge.Status.CANCELLED)
        if pending.count() >= MAX_PENDING:
            raise ChallengeError(_("Wait for an answer to your other challenges first."))
        challenge = Challenge.objects.create(
            challenger=challenger,
            challenged=challenged,
            variant=setup.variant,
            deck=setup.deck,
            turn_seconds=setup.turn_seconds,
            rated=setup.rated,
            expires_at=now + timedelta(seconds=CHALLENGE_SECONDS),
        )
        push.to_user(challenged.pk, received_payload(challenge))
    return challenge


def received_payload(challenge: Challenge) -> dict[str, object]:
    """What the challenged player's pages get: numbers and a name, worded by the page."""
    return {
        "kind": "challenge.received",
        "id": challenge.pk,
        "from": challenge.challenger.public_name,
        "url": reverse("pairing:challenge", args=[challenge.pk]),
        "variant": challenge.variant,
        "deck": challenge.deck,
        "turn_seconds": challenge.turn_seconds,
        "rated": challenge.rated,
        "expires_in": max(0, int((challenge.expires_at - timezone.now()).total_seconds())),
    }


def challenge_accept(*, challenge_id: int, user: User) -> Table:
    """The challenged player accepts: the table is made and returned, dealt or dealing, and both
    are taken to the match (by the tables service when the deal waits for their values)."""
    with transaction.atomic():
        challenge = _lock(challenge_id, challenged=user)
        if blocked_between(challenge.challenger_id, challenge.challenged_id):
            raise ChallengeError(_("You cannot play this player."))
        setup = challenge.setup
        table = games.table_create(
            creator=challenge.challenger,
            rules=setup.rules(),
            rated=setup.rated,
            turn_seconds=setup.turn_seconds,
        )
        games.table_join(table_id=table.pk, user=user)
        challenge.status, challenge.table = Challenge.Status.ACCEPTED, table
        challenge.save(update_fields=["status", "table"])
        match = game_selectors.table_current_match(table_id=table.pk)
        if match is not None:
            push.match_started([challenge.challenger_id, challenge.challenged_id], match.pk, why="challenge")
    return table


def challenge_decline(*, challenge_id: int, user: User) -> None:
    with transaction.atomic():
        challenge = _lock(challenge_id, challenged=user)
        challenge.status = Challenge.Status.DECLINED
        challenge.save(update_fields=["status"])
        push.to_user(
            challenge.challenger_id,
            {"kind": "challenge.declined", "id": challenge.pk, "by": user.public_name},
        )
        push.to_user(challenge.challenged_id, {"kind": "challenge.gone", "id": challenge.pk})


def challenge_cancel(*, challenge_id: int, user: User) -> None:
    with transaction.atomic():
        challenge = _lock(challenge_id, challenger=user)
        challenge.status = Challenge.Status.CANCELLED
        challenge.save(update_fields=["status"])
        push.to_user(challenge.challenged_id, {"kind": "challenge.gone", "id": challenge.pk})


def challenges_expire() -> int:
    """Every pending challenge past its time expires (its pages are told)."""
    with transaction.atomic():
        due = list(
            Challenge.objects.select_for_update(skip_locked=True).filter(
                status=Challenge.Status.PENDING, expires_at__lte=timezone.now()
            )
        )
        for challenge in due:
            challenge.status = Challenge.Status.EXPIRED
            challenge.save(update_fields=["status"])
            for user_id in (challenge.challenger_id, challenge.challenged_id):
                push.to_user(user_id, {"kind": "challenge.gone", "id": challenge.pk})
    return len(due)


def challenges_withdraw(*, user_id: int) -> int:
    """The challenges ``user_id`` sent go when they left the site."""
    with transaction.atomic():
        gone = list(
            Challenge.objects.select_for_update().filter(
                challenger_id=user_id, status=Challenge.Status.PENDING
            )
        )
        for challenge in gone:
            challenge.status = Challenge.Status.CANCELLED
            challenge.save(update_fields=["status"])
            push.to_user(challenge.challenged_id, {"kind": "challenge.gone", "id": challenge.pk})
    return len(gone)


def _lock(challenge_id: int, *, challenger: User | None = None, challenged: User | None = None) -> Challenge:
    """The open challenge, locked, if ``challenger``/``challenged`` is the one it names."""
    found = (
        Challenge.objects.select_for_update()
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    if found is None or (challenger is not None and found.challenger_id != challenger.pk):
        raise ChallengeError(_("There is no such challenge."))
    if challenged is not None and found.challenged_id != challenged.pk:
        raise ChallengeError(_("There is no such challenge."))
    if not found.is_open():
        raise ChallengeError(_("This challenge is no longer open."))
    return found
