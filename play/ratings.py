"""Ratings as live play shows them: each player's rating in the table's pool (the lobby, the
table page, the match page) and what a finished match changed.

Live play stands above ratings (``docs/architecture.md``, floors) and reads them here directly.
A match keeps its players' ratings from the deal (``MatchPlayer.rating``), so a move's push reads
no rating; only a finished match's page asks for the changes, which the finish itself writes
(``services.turn.commit`` calls ``ratings.services.match_rate`` in the move's transaction), so the
one push that ends the game already shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.models import User
from games.memos import gettext as _
from games.memos import in_language
from ratings.elo import is_provisional
from ratings.models import Rating, RatingChange, UnratedMatch
from ratings.starts import start_rating


@dataclass(frozen=True, slots=True)
class ShownRating:
    """A rating as the pages show it: whole points, "?" while provisional (as on the profile)."""

    rating: float
    provisional: bool

    @property
    def points(self) -> int:
        return round(self.rating)

    @property
    def chip(self) -> SafeString:
        """The rating as the seat lists and the match page show it (one markup for both of the
        site's template engines), remembered: every push shows the viewer's."""
        return _chip(self.points, self.provisional)


@in_language(1024)
def _chip(points: int, provisional: bool) -> SafeString:
    """``ShownRating.chip`` of ``points``."""
    title = _("rating in this pool (provisional)") if provisional else _("rating in this pool")
    return format_html(
        '<span class="rating-chip{}" data-rating="{}" title="{}">{}{}</span>',
        " rating-chip--provisional" if provisional else "",
        str(points),
        title,
        points,
        "?" if provisional else "",
    )


@dataclass(frozen=True, slots=True)
class ShownChange:
    """What one finished rated match did to a player's rating in its pool."""

    before: float
    after: float
    delta: float

    @property
    def points(self) -> int:
        return round(self.after)

    @property
    def delta_points(self) -> int:
        return round(self.delta)


def ratings(pool: str, users: Sequence[User]) -> dict[int, ShownRating]:
    """User id -> their rating in ``pool`` (where they would start for a pool not played), one
    query."""
    if not users:
        return {}
    rows = {
        user_id: (rating, games)
        for user_id, rating, games in Rating.objects.filter(
            pool=pool, user_id__in=[u.pk for u in users]
        ).values_list("user_id", "rating", "games")
    }
    shown = {}
    for user in users:
        rating, games = rows.get(user.pk, (start_rating(user), 0))
        shown[user.pk] = ShownRating(float(rating), is_provisional(games))
    return shown


def changes(match_id: int) -> dict[int, ShownChange]:
    """User id -> the change ``match_id`` made (empty until the match is rated), one query."""
    rows = RatingChange.objects.filter(match_id=match_id).values_list("user_id", "before", "after", "delta")
    return {user_id: ShownChange(before, after, delta) for user_id, before, after, delta in rows}


def unrated(match_id: int) -> str:
    """Why the finished match ``match_id`` of a rated table moved no rating (``"early"``,
    ``"repeat"``), or ``""`` (rated, or not decided yet)."""
    return UnratedMatch.objects.filter(match_id=match_id).values_list("reason", flat=True).first() or ""
