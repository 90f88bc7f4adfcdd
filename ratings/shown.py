"""The reader live play shows ratings through (``play.ratings``, registered by
``ratings.apps``): a pool's ratings of some players, and a match's changes, one query each."""

from __future__ import annotations

from collections.abc import Sequence

from accounts.models import User
from play.ratings import ShownChange, ShownRating
from ratings.elo import is_provisional
from ratings.models import Rating, RatingChange, UnratedMatch
from ratings.starts import start_rating


class Reader:
    def ratings(self, pool: str, users: Sequence[User]) -> dict[int, ShownRating]:
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

    def changes(self, match_id: int) -> dict[int, ShownChange]:
        rows = RatingChange.objects.filter(match_id=match_id).values_list(
            "user_id", "before", "after", "delta"
        )
        return {user_id: ShownChange(before, after, delta) for user_id, before, after, delta in rows}

    def unrated(self, match_id: int) -> str:
        return UnratedMatch.objects.filter(match_id=match_id).values_list("reason", flat=True).first() or ""
