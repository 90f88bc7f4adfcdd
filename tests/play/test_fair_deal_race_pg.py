"""The end of a table's wait for values (docs/rules.md §"Fair deals" step 3), proven on
PostgreSQL: the last awaited value, the deadline's task and beat's sweep arriving at once deal the
table exactly once, and the value is either in that deal or refused as too late."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import seeding
from games.engine import Rules
from games.models import Match, Table
from people import services as people
from play import services

from .services_support import make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

VALUE = "c" * 31 + "3"


def at_once(calls: list[Callable[[], object]]) -> list[object]:
    """Run every call at once, one thread each; returns results or refusals."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(i: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[i] = call()
        except services.GameError as error:
            outcomes[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


@pytest.mark.parametrize("round_", range(4))
def test_the_last_value_and_the_deadline_deal_once(round_: int) -> None:
    alice, bob = make_user(f"alice{round_}"), make_user(f"bob{round_}")
    for user in (alice, bob):
        people.presence_open(user.pk, f"race.{user.pk}")
    table = services.table_create(creator=alice, rules=Rules())
    table.refresh_from_db()
    commitment = seeding.commitment(table.server_seed)
    services.seed_contribute(table_id=table.pk, user=alice, value=VALUE, commitment=commitment)
    services.table_join(table_id=table.pk, user=bob)  # Bob's page sent nothing yet: the table waits
    assert Table.objects.get(pk=table.pk).status == Table.Status.DEALING
    Table.objects.filter(pk=table.pk).update(deal_due_at=timezone.now() - timedelta(milliseconds=1))
    bob_value = "d" * 31 + str(round_)
    outcomes = at_once(
        [
            lambda: services.seed_contribute(
                table_id=table.pk, user=bob, value=bob_value, commitment=commitment
            ),
            lambda: services.table_deal_due(table_id=table.pk),
            lambda: services.tables_sweep(),
        ]
    )
    (match,) = Match.objects.filter(table_id=table.pk)
    refused = isinstance(outcomes[0], services.TableError)
    assert match.contributions[1] == (
        {"seat": 1, "value": None, "missing": True} if refused else {"seat": 1, "value": bob_value}
    ), outcomes
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
