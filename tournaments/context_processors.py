"""The "your tournament table is ready" notice on every page.

A player waiting between rounds browses the site; when the next pairing is dealt they must learn
it wherever they are, not only on the tournament page. The list is lazy: pages that do not show
the notice (the tournament pages show their own, the game pages are where it leads) cost no query.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from tournaments.selectors import next_tables


def tournament_notice(request: HttpRequest) -> dict[str, Any]:
    return {"next_tournament_tables": SimpleLazyObject(lambda: next_tables(user=request.user))}
