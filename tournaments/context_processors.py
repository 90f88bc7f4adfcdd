"""The "your tournament table is ready" notice on every page, and the banner of a tournament's
game on the game's own page.

A player waiting between rounds browses the site; when the next pairing is dealt they must learn
it wherever they are, not only on the tournament page. On a game's page the notice gives way to
the banner: the game's tournament with a link back and, in an arena, its clock, berserk and the
player's next game. Both are lazy: pages that do not show them cost no query.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from tournaments.presenters import Banner, present_banner
from tournaments.selectors import next_tables


def tournament_notice(request: HttpRequest) -> dict[str, Any]:
    return {
        "next_tournament_tables": SimpleLazyObject(lambda: next_tables(user=request.user)),
        "match_banner": SimpleLazyObject(lambda: _match_banner(request)),
    }


def _match_banner(request: HttpRequest) -> Banner | None:
    found = request.resolver_match
    if found is None or found.namespace != "games" or found.url_name != "match":
        return None
    return present_banner(int(found.kwargs["match_id"]), request.user)
