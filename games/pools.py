"""Pools: the variant and the table kind a match is counted in, rated or not.

A pool is ``"<variant>:<kind>"`` with the kind ``2`` (two players), ``3-6`` (three to six, each
for themselves) or ``2v2`` (teams). Ratings are kept per pool, the leaderboard has a tab per
pool, and the history filters by pool; all of them take the names from here. A rated table plays
the variant's default options (``rated_pool`` is ``None`` for anything else), so every rating in a
pool measures the same game; the number of players is free within a kind.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from django.db.models import Q

from games.engine import Rules
from games.engine.rules import VARIANTS

#: Table kinds: two players, three to six each for themselves, two against two.
KINDS: Final = ("2", "3-6", "2v2")


def table_kind(*, players: int, teams: bool) -> str:
    """``2``, ``3-6`` or ``2v2``.

    >>> table_kind(players=4, teams=True), table_kind(players=5, teams=False)
    ('2v2', '3-6')
    """
    if teams:
        return "2v2"
    return "2" if players == 2 else "3-6"


def all_pools() -> list[str]:
    """Every pool name, variant by variant: the leaderboard's tabs and the history's table filter."""
    return [f"{variant}:{kind}" for variant in VARIANTS for kind in KINDS]


def table_kind_pool(rules: dict[str, Any]) -> str:
    """The pool name of a match's rules (``Rules.to_dict()``), rated or not; ``pool_q`` is its
    database form.

    >>> table_kind_pool({"variant": "circle", "players": 4, "teams": False})
    'circle:3-6'
    """
    kind = table_kind(players=int(rules.get("players", 2)), teams=bool(rules.get("teams")))
    return f"{rules.get('variant')}:{kind}"


def rated_pool(rules: Rules) -> str | None:
    """The rating pool of ``rules``, or ``None`` when an option differs from the variant's
    defaults (such a table can only be casual).

    >>> rated_pool(Rules.for_variant("perevodnoy", players=4, teams=True))
    'perevodnoy:2v2'
    >>> rated_pool(Rules.for_variant("podkidnoy", players=3, deck=52)) is None
    True
    """
    default = Rules.for_variant(rules.variant, players=rules.players, teams=rules.teams)
    # Games recorded under the earlier waiting rule (``Rules.throw_in_waits``) stay in their pool.
    if replace(rules, throw_in_waits=default.throw_in_waits) != default:
        return None
    return f"{rules.variant}:{table_kind(players=rules.players, teams=rules.teams)}"


def pool_q(pool: str, prefix: str = "match__") -> Q:
    """Matches of a pool's variant and table kind (``"podkidnoy:3-6"`` …), through ``prefix``."""
    variant, _sep, kind = pool.partition(":")
    rules = f"{prefix}rules__"
    q = Q(**{f"{rules}variant": variant})
    if kind == "2v2":
        return q & Q(**{f"{rules}teams": True})
    q &= Q(**{f"{rules}teams": False})
    if kind == "2":
        return q & Q(**{f"{rules}players": 2})
    return q & Q(**{f"{rules}players__gte": 3})
