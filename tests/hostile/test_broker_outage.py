"""A move made while the Celery broker (Redis) is unreachable: never a 500.

The move service enqueues the next deadline and bot turns after commit
(``durak_site.tasks.enqueue_on_commit``). When the broker cannot be reached at that moment the
move has already committed, and the sweep of overdue deadlines will arm the match again; the
player must get their fresh view, not a server error.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from kombu.exceptions import OperationalError

from durak_site.celery import app as celery_app
from games.models import Match
from tests.play.services_support import match_state

from .support import make_world

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_while_the_broker_is_down_is_not_a_500(monkeypatch: pytest.MonkeyPatch) -> None:
    world = make_world()

    def unreachable(*args: object, **kwargs: object) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(celery_app, "send_task", unreachable)  # every task is sent through it
    state = match_state(world.match)
    seat = min(state.awaiting())
    client = Client(raise_request_exception=False)
    client.force_login(world.player(seat))
    response = client.post(
        reverse("games:match_action", args=[world.match.pk]),
        {"action": str(state.legal_actions(seat)[0]), "version": 0},
    )
    assert Match.objects.get(pk=world.match.pk).version == 1  # the move committed
    assert response.status_code < 500
