"""Rematches: "Play again" at a finished match (``play.services.play_again``, which deals
the next match when every human seated agreed; the deal passes as ``docs/rules.md`` §1 says:
the fool deals, after a draw, a team game or an aborted game the deal passes to the left)
becomes an offer that reaches everyone else who was seated, on whatever page they are; and when
some do not answer, those who agreed may fill their seats with bots (``again_with_bots``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Match
from pairing import push
from play import services as games


def tell_the_table(*, match: Match, user_id: int, new_match: Match | None) -> None:
    """``user_id`` agreed to play again after ``match``: the others hear it after the commit (or,
    when that was the last agreement, everyone is taken to ``new_match``)."""
    if new_match is not None:  # those who sit at the new match (bots may have taken some seats)
        seated = new_match.players.filter(user__is_bot=False).values_list("user_id", flat=True)
        push.match_started(list(seated), new_match.pk, why="rematch")
        return
    humans = [p for p in match.players.select_related("user") if not p.user.is_bot]
    offerer = User.objects.filter(pk=user_id).first()
    url = reverse("games:match", args=[match.pk])
    for player in humans:
        if player.user_id != user_id and not player.wants_again:
            push.to_user(
                player.user_id,
                {
                    "kind": "rematch.offered",
                    "match": match.pk,
                    "url": url,
                    "from": offerer.public_name if offerer else "",
                },
            )


#: Those who agreed to play again may fill the other seats with bots once the others had this
#: long to answer.
BOTS_AFTER_SECONDS = 15


def again_with_bots(*, match_id: int, user: User, level: str) -> Match:
    """A player who agreed to play again, tired of waiting, deals the next match with bots in the
    seats of those who did not answer (after ``BOTS_AFTER_SECONDS``)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise games.GameError(_("There is no such game."))
    if match.finished_at is None or (timezone.now() - match.finished_at).total_seconds() < BOTS_AFTER_SECONDS:
        raise games.GameError(_("Give the others a moment to answer."))
    return games.play_again_with_bots(match_id=match_id, user=user, level=level)
