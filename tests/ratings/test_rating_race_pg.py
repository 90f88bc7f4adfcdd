"""A rating task delivered twice at the same moment, on PostgreSQL: the advisory lock lets one
delivery apply the match and the other find it rated, so the match counts once."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection

from games.engine import Rules
from ratings.models import Rating, RatingChange
from ratings.services import match_rate

from .builders import finished_match, make_users

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def deliver_at_once(match_id: int, times: int) -> list[object]:
    barrier = threading.Barrier(times)
    outcomes: list[object] = [None] * times

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[i] = match_rate(match_id)
        except Exception as error:
            outcomes[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


def test_a_concurrent_double_delivery_applies_once() -> None:
    for n in range(3):
        users = make_users(4, prefix=f"race{n}-")
        match = finished_match(
            users, Rules.for_variant("perevodnoy", players=4), seed=f"race-{n}", rng=random.Random(n)
        )
        outcomes = deliver_at_once(match.pk, 4)
        assert sorted(outcomes, key=str) == [False, False, False, True], outcomes
        assert RatingChange.objects.filter(match=match).count() == 4
        assert set(Rating.objects.filter(user__in=users).values_list("games", flat=True)) == {1}
