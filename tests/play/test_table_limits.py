"""Unlimited tables (issue 16 §4): a user may keep only a few tables open and open only so many
in a while; a table nobody joined is closed by beat's sweep; the lobby shows a host who is away.
Host presence is a last-seen time in the table's row, refreshed by the host's sockets."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from durak_site.celery import app as celery_app
from games.engine import Rules
from games.models import Table
from play import services
from play.routing import websocket_urlpatterns
from play.services.limits import TableLimit, unjoined_tables
from play.tasks import tables_sweep

from .services_support import make_user

pytestmark = pytest.mark.django_db


@override_settings(GAMES_OPEN_TABLES_PER_USER=3, GAMES_TABLE_CREATE_RATE=(100, 600))
def test_a_fourth_open_table_is_refused_until_one_is_left() -> None:
    host = make_user("host")
    tables = [services.table_create(creator=host, rules=Rules()) for _ in range(3)]
    with pytest.raises(TableLimit, match="already have 3 open tables"):
        services.table_create(creator=host, rules=Rules())
    assert Table.objects.filter(creator=host).count() == 3
    services.seat_leave(table_id=tables[0].pk, user=host)  # closes it: nobody else sits there
    assert services.table_create(creator=host, rules=Rules()).pk
    other = make_user("other")
    assert services.table_create(creator=other, rules=Rules()).pk  # the limit is per user


@override_settings(GAMES_OPEN_TABLES_PER_USER=100, GAMES_TABLE_CREATE_RATE=(2, 600))
def test_opening_tables_too_fast_is_refused_with_a_clear_message_until_the_window_passes() -> None:
    host = make_user("host")
    for _ in range(2):
        services.table_create(creator=host, rules=Rules())
    with pytest.raises(TableLimit, match="opened 2 tables in the last 10 minutes"):
        services.table_create(creator=host, rules=Rules())
    Table.objects.update(created=timezone.now() - timedelta(minutes=11))
    assert services.table_create(creator=host, rules=Rules()).pk


@override_settings(GAMES_OPEN_TABLES_PER_USER=1, GAMES_TABLE_CREATE_RATE=(1, 600))
def test_tables_a_tournament_arranges_neither_count_nor_are_refused() -> None:
    host = make_user("host")
    for _ in range(3):
        services.table_create(creator=host, rules=Rules(), private=True, organised=True)
    assert services.table_create(creator=host, rules=Rules()).pk


@override_settings(GAMES_OPEN_TABLES_PER_USER=1)
def test_the_create_form_past_the_limit_shows_the_refusal_not_an_error_page() -> None:
    host = make_user("host")
    services.table_create(creator=host, rules=Rules())
    client = Client()
    client.force_login(host)
    data = {
        "variant": "podkidnoy",
        "players": 2,
        "deck": 36,
        "throw_in": "all",
        "draws": "on",
        "jokers": 0,
        "joker_beats": "any",
        "joker_last": "defence_only",
        "turn_seconds": 30,
    }
    response = client.post(reverse("games:table_create"), data)
    assert response.status_code == 200
    assert "already have 1 open table" in response.content.decode()
    assert Table.objects.count() == 1


@override_settings(GAMES_UNJOINED_TABLE_MINUTES=30)
def test_the_sweep_closes_only_tables_nobody_joined_in_time_and_twice_is_harmless() -> None:
    host, guest = make_user("host"), make_user("guest")
    old = timezone.now() - timedelta(minutes=31)
    lonely = services.table_create(creator=host, rules=Rules(players=3))
    joined = services.table_create(creator=guest, rules=Rules(players=3))
    services.table_join(table_id=joined.pk, user=host)
    dealt = services.table_create(creator=guest, rules=Rules())
    services.seats_fill_with_bots(table_id=dealt.pk, user=guest, level="random")
    watched = services.table_create(creator=guest, rules=Rules(), sit=False)
    fresh = services.table_create(creator=host, rules=Rules())
    Table.objects.exclude(pk=fresh.pk).update(created=old)
    assert sorted(unjoined_tables()) == sorted([lonely.pk, watched.pk])
    assert tables_sweep() == 2  # the Celery task, as beat sends it
    assert tables_sweep() == 0
    statuses = dict(Table.objects.values_list("pk", "status"))
    assert statuses[lonely.pk] == statuses[watched.pk] == Table.Status.CLOSED
    assert statuses[joined.pk] == statuses[fresh.pk] == Table.Status.OPEN
    assert statuses[dealt.pk] == Table.Status.PLAYING
    assert not lonely.seats.exists()


def test_beat_runs_the_table_sweep_every_minute() -> None:
    schedule = {entry["task"]: entry["schedule"] for entry in celery_app.conf.beat_schedule.values()}
    assert schedule["games.tables_sweep"] == 60.0
    assert "games.tables_sweep" in celery_app.tasks


@override_settings(GAMES_HOST_AWAY_SECONDS=90)
def test_the_lobby_shows_a_host_away_once_their_last_sign_of_life_is_old() -> None:
    host = make_user("host")
    table = services.table_create(creator=host, rules=Rules())
    lobby = Client().get(reverse("games:lobby")).content.decode()
    assert f'data-table="{table.pk}"' in lobby and "data-host-away" not in lobby
    Table.objects.update(host_seen_at=timezone.now() - timedelta(seconds=91))
    lobby = Client().get(reverse("games:lobby")).content.decode()
    assert "data-host-away" in lobby and "host away" in lobby
    assert services.host_seen(user=host) == 1
    assert "data-host-away" not in Client().get(reverse("games:lobby")).content.decode()


def test_only_the_host_refreshes_the_presence_of_their_table() -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(players=3))
    Table.objects.update(host_seen_at=None)
    assert services.host_seen(user=guest, table_id=table.pk) == 0
    table.refresh_from_db()
    assert table.host_seen_at is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_hosts_table_socket_marks_the_host_present() -> None:
    host = await sync_to_async(make_user)("host")
    table = await sync_to_async(services.table_create)(creator=host, rules=Rules())
    await sync_to_async(Table.objects.update)(host_seen_at=None)
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{table.pk}/")
    communicator.scope["user"] = host
    connected, _code = await communicator.connect(timeout=5)
    assert connected
    await communicator.receive_from(timeout=5)  # the seats
    for _ in range(50):
        seen = await sync_to_async(lambda: Table.objects.get(pk=table.pk).host_seen_at)()
        if seen is not None:
            break
        await communicator.receive_nothing(timeout=0.1)
    await communicator.disconnect()
    assert seen is not None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@override_settings(GAMES_OPEN_TABLES_PER_USER=2, GAMES_TABLE_CREATE_RATE=(100, 600))
def test_parallel_creations_on_postgresql_never_pass_the_limit_together() -> None:
    """Six threads open a table for one user at once: the lock on the user's row lets two in."""
    host = make_user("host")
    barrier = threading.Barrier(6)
    outcomes: list[str] = []

    def create() -> None:
        try:
            barrier.wait()
            services.table_create(creator=host, rules=Rules())
            outcomes.append("made")
        except TableLimit:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["made"] * 2 + ["refused"] * 4
    assert Table.objects.filter(creator=host).count() == 2
