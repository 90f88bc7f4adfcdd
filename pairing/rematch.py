"""Rematches: "Play again" at a finished match (``games.live.services.play_again``, which deals
the next match when every human seated agreed; the deal passes as ``docs/rules.md`` §1 says:
the fool deals, after a draw, a team game or an aborted game the deal passes to the left)
becomes an offer that reaches everyone else who was seated, on whatever page they are."""

from __future__ import annotations

from django.urls import reverse

from accounts.models import User
from games.models import Match
from pairing import push


def tell_the_table(*, match: Match, user_id: int, new_match: Match | None) -> None:
    """``user_id`` agreed to play again after ``match``: the others hear it after the commit (or,
    when that was the last agreement, everyone is taken to ``new_match``)."""
    players = list(match.players.select_related("user"))
    humans = [p for p in players if not p.user.is_bot]
    if new_match is not None:
        push.match_started([p.user_id for p in humans], new_match.pk, why="rematch")
        return
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
