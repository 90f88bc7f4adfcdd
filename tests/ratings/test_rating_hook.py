"""The one hook: a rated match finished through the live services is rated in the transaction that
writes its result (as lila's Finisher), once; a casual match is not rated, and no rating task is
sent."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Rules
from play import selectors, services
from play.services import turn
from ratings.models import RatingChange
from ratings.tasks import rate_match
from tests.play.services_support import make_user, play_out

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rated", [True, False])
def test_a_finished_rated_match_is_rated_with_its_result_once(
    monkeypatch: pytest.MonkeyPatch, rated: bool
) -> None:
    sent: list[tuple[Any, tuple[Any, ...]]] = []
    monkeypatch.setattr(turn, "enqueue_on_commit", lambda task, *args, **kwargs: sent.append((task, args)))
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "hook")
    humans = [make_user("anna"), make_user("boris")]
    table = services.table_create(creator=humans[0], rules=Rules.for_variant("podkidnoy"), rated=rated)
    services.table_join(table_id=table.pk, user=humans[1])
    current = selectors.table_current_match(table_id=table.pk)
    assert current is not None
    match = play_out(current)
    assert [args for task, args in sent if task is rate_match] == []
    assert RatingChange.objects.filter(match=match).count() == (2 if rated else 0)
    assert rate_match(match.pk) is False
    assert RatingChange.objects.filter(match=match).count() == (2 if rated else 0)
