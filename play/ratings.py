"""Ratings as live play shows them: each player's rating in the table's pool (the lobby, the
table page, the match page) and what a finished match changed.

The ratings app stands above games (``docs/architecture.md``, floors), so games never imports
it: ``ratings.apps`` registers its reader here at start-up. Without one (an app list without
ratings) nothing is shown. A match keeps its players' ratings from the deal
(``MatchPlayer.rating``), so a move's push reads no rating; only a finished match's page asks for
the changes, which a Celery task writes after the end (``ratings.services.match_rate``) and then
announces (``services.match_refresh``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.models import User
from games.memos import gettext as _
from games.memos import in_language


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


class RatingReader(Protocol):
    def ratings(self, pool: str, users: Sequence[User]) -> dict[int, ShownRating]:
        """User id -> their rating in ``pool`` (where they would start for a pool not played)."""
        ...

    def changes(self, match_id: int) -> dict[int, ShownChange]:
        """User id -> the change ``match_id`` made (empty until the match is rated)."""
        ...

    def unrated(self, match_id: int) -> str:
        """Why the finished match ``match_id`` of a rated table moved no rating (``"early"``,
        ``"repeat"``), or ``""`` (rated, or not decided yet)."""
        ...


_reader: RatingReader | None = None


def register(reader: RatingReader) -> None:
    """Called once by the ratings app when Django starts."""
    global _reader
    _reader = reader


def ratings(pool: str, users: Sequence[User]) -> dict[int, ShownRating]:
    return _reader.ratings(pool, users) if _reader is not None and users else {}


def changes(match_id: int) -> dict[int, ShownChange]:
    return _reader.changes(match_id) if _reader is not None else {}


def unrated(match_id: int) -> str:
    return _reader.unrated(match_id) if _reader is not None else ""
