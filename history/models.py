"""The models of match history: the game reviews (declared in ``history.review.models``)."""

from history.review.models import Review, ReviewDecision

__all__ = ["Review", "ReviewDecision"]
