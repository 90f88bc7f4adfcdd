"""Pairing listens to ``people.signals.user_offline``: the seeks of a player who has no page open
any more go, after a grace period (``tasks.offline``), and to ``games.signals.match_finished`` and
``again_wanted``: the grid's "playing" counts change, and a rematch offer reaches the others."""

from __future__ import annotations

from typing import Any

from durak_site.tasks import enqueue_on_commit
from games.models import Match
from games.signals import again_wanted, match_finished
from pairing import push, rematch, tasks
from people.signals import user_offline


def seek_goes_offline(sender: Any, *, user_id: int, **kwargs: Any) -> None:
    enqueue_on_commit(tasks.offline, user_id, countdown=tasks.OFFLINE_GRACE_SECONDS)


def counts_change(sender: type[Match], *, match: Match, **kwargs: Any) -> None:
    push.grid_changed()


def again_offered(
    sender: type[Match], *, match: Match, user_id: int, new_match: Match | None, **kwargs: Any
) -> None:
    rematch.tell_the_table(match=match, user_id=user_id, new_match=new_match)


def connect() -> None:
    user_offline.connect(seek_goes_offline, dispatch_uid="pairing.seek_goes_offline")
    match_finished.connect(counts_change, dispatch_uid="pairing.counts_change")
    again_wanted.connect(again_offered, dispatch_uid="pairing.again_offered")
