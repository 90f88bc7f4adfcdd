"""What a program sees of its game: exactly its seat's view (``View.to_dict``, the same view its
seat's page is drawn from), the match's version to send moves at, and the public facts around it.
Nothing of another hand or of the stock's order is read from the state but through ``view``."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games.models import Match
from pairing.selectors import open_challenges
from play import selectors


def game_payload(*, match_id: int, user: User, kind: str = "gameState") -> dict[str, Any] | None:
    """The frame of ``match_id`` for ``user``'s seat, or ``None`` when it is not their game."""
    loaded = selectors.match_load(match_id=match_id, moves_after=None)
    if loaded is None:
        return None
    player = next((p for p in loaded.players if p.user_id == user.pk), None)
    if player is None:
        return None
    match = loaded.match
    return {
        "type": kind,
        "id": match.pk,
        "version": loaded.version,
        "status": match.status,
        "seat": player.seat,
        "autopilot": player.autopilot,
        "deadline": match.deadline_at.isoformat() if match.deadline_at else None,
        "players": [
            {"seat": p.seat, "name": str(p.user.public_name), "bot": bool(p.user.is_bot)}
            for p in loaded.players
        ],
        "view": loaded.state.view(player.seat).to_dict(),
        "result": match.result if match.status != Match.Status.ACTIVE else None,
    }


def active_match_ids(user: User) -> set[int]:
    return set(selectors.user_active_matches(user=user).values_list("pk", flat=True))


def challenges_to(user: User) -> dict[int, dict[str, Any]]:
    """The challenges waiting for ``user``'s answer, by id, as the event stream shows them."""
    waiting = [c for c in open_challenges(user=user) if c.challenged_id == user.pk]
    return {
        c.pk: {
            "id": c.pk,
            "from": str(c.challenger.public_name),
            "variant": c.variant,
            "deck": c.deck,
            "turn_seconds": c.turn_seconds,
            "rated": c.rated,
            "expires_at": c.expires_at.isoformat(),
        }
        for c in waiting
    }
