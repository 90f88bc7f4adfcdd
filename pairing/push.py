"""What pairing tells a player wherever they are (their personal socket ``/ws/me/``) and what it
tells every quick-pairing grid (the ``pairing.grid`` group), always after the commit.

The personal payloads carry ids, numbers and names only; each page renders its own words
(``static/js/pairing.js``), so a push reads right in the receiver's language.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from durak_site.broadcast import group_send_on_commit
from people.consumers import personal_group

#: Every page showing the quick-pairing grid listens here for its counts.
GRID_GROUP = "pairing.grid"


def to_user(user_id: int, payload: dict[str, Any]) -> None:
    group_send_on_commit(personal_group(user_id), {"type": "personal.event", "payload": payload})


def match_started(user_ids: list[int], match_id: int, *, why: str) -> None:
    """Take each of ``user_ids`` to the match (``why``: ``pairing``, ``challenge`` or ``rematch``)."""
    url = reverse("games:match", args=[match_id])
    for user_id in user_ids:
        to_user(user_id, {"kind": "match.started", "why": why, "match": match_id, "url": url})


def grid_changed() -> None:
    group_send_on_commit(GRID_GROUP, {"type": "grid.changed"})
