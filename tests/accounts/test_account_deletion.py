"""Deleting an account frees everything it still holds: its seats and the tables it opened, its
matches in play (it resigns, the autopilot finishes the seat) and its tournament entries. Finished
matches keep it, anonymised. ``accounts`` announces the deletion (``account_deleted``); live play
and tournaments each do their part in the same transaction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import user_anonymise
from accounts.signals import account_deleted
from games.engine import Rules
from games.models import Match, MatchPlayer, Seat, Table
from play import selectors
from play import services as live
from tests.play.services_support import make_user, play_out, start_match
from tests.tournaments.support import open_with_bots, play_running_games, started_with_player
from tournaments import services as tournaments
from tournaments.models import Entry, Pairing, Tournament

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]  # pytest-django's django_capture_on_commit_callbacks


def seat_users(table: Table) -> set[int]:
    return set(Seat.objects.filter(table=table).values_list("user_id", flat=True))


# --- seats and tables -------------------------------------------------------------------------


def test_a_seat_at_a_waiting_table_is_freed() -> None:
    olga, ivan = make_user("olga"), make_user("ivan")
    table = live.table_create(creator=olga, rules=Rules(players=3))
    live.table_join(table_id=table.pk, user=ivan)
    user_anonymise(user=ivan)
    assert seat_users(table) == {olga.pk}
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_a_table_the_account_sat_at_alone_closes() -> None:
    ivan = make_user("ivan")
    table = live.table_create(creator=ivan, rules=Rules(players=2))
    user_anonymise(user=ivan)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and not seat_users(table)


def test_a_waiting_table_it_opened_to_watch_bots_closes() -> None:
    ivan = make_user("ivan")
    table = live.table_create(creator=ivan, rules=Rules(players=3), sit=False)
    user_anonymise(user=ivan)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED


def test_a_deleted_account_is_never_dealt_into_a_new_match() -> None:
    """It waited at a two-seat table: the next person to sit down does not start a match with it."""
    ivan, olga = make_user("ivan"), make_user("olga")
    creator = make_user("creator")
    table = live.table_create(creator=creator, rules=Rules(players=3), sit=False)
    live.table_join(table_id=table.pk, user=ivan)
    live.table_join(table_id=table.pk, user=olga)
    user_anonymise(user=ivan)
    live.table_join(table_id=table.pk, user=make_user("pavel"))
    assert selectors.table_current_match(table_id=table.pk) is None
    assert not MatchPlayer.objects.filter(user=ivan).exists()


# --- matches in play --------------------------------------------------------------------------


def test_a_two_player_match_in_play_is_resigned_and_the_seat_freed() -> None:
    ivan, olga = make_user("ivan"), make_user("olga")
    match = start_match(humans=[ivan, olga])
    user_anonymise(user=ivan)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    player = match.players.get(user=ivan)
    assert player.resigned and player.fool and player.autopilot
    assert ivan.pk not in seat_users(match.table)


def test_at_a_bigger_table_the_autopilot_finishes_the_seat_and_it_leaves_after(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    ivan, olga, pavel = make_user("ivan"), make_user("olga"), make_user("pavel")
    match = start_match(humans=[ivan, olga, pavel], rules=Rules(players=3))
    with django_capture_on_commit_callbacks(execute=True):
        user_anonymise(user=ivan)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE  # the others play on
    assert match.players.get(user=ivan).autopilot
    with django_capture_on_commit_callbacks(execute=True):
        finished = play_out(match)
    assert finished.status == Match.Status.FINISHED
    assert ivan.pk not in seat_users(match.table)
    for user in (olga, pavel):
        live.play_again(match_id=match.pk, user=user)
    assert Match.objects.filter(table_id=match.table_id).count() == 1  # no new deal: a seat is free


def test_finished_matches_keep_the_anonymised_player(client: Client) -> None:
    ivan, olga = make_user("ivan"), make_user("olga")
    finished = play_out(start_match(humans=[ivan, olga]))
    user_anonymise(user=ivan)
    assert finished.players.filter(user=ivan).exists()
    page = client.get(reverse("match_record", args=[finished.pk]))
    assert page.status_code == 200
    assert "deleted player" in page.content.decode()


# --- tournaments ------------------------------------------------------------------------------


def test_an_entry_in_registration_is_withdrawn() -> None:
    organiser, ivan = make_user("organiser"), make_user("ivan")
    tournament = open_with_bots(organiser, 2)
    tournaments.entry_register(tournament_id=tournament.pk, user=ivan)
    user_anonymise(user=ivan)
    assert Entry.objects.get(tournament=tournament, player=ivan).state == Entry.State.WITHDRAWN


def test_in_a_running_tournament_it_forfeits_and_is_never_paired_again(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    organiser = make_user("organiser")
    tournament, ivan = started_with_player(organiser, 3, "ivan", format=Tournament.Format.ROUND_ROBIN)
    playing = Pairing.objects.filter(tournament=tournament, players__user=ivan, status=Pairing.Status.PLAYING)
    assert playing.exists()
    with django_capture_on_commit_callbacks(execute=True):
        user_anonymise(user=ivan)
    assert Entry.objects.get(tournament=tournament, player=ivan).state == Entry.State.WITHDRAWN
    assert not playing.exists()
    play_running_games(tournament)
    # Later rounds of the schedule list it, decided as forfeits without a table: never dealt in.
    later = Pairing.objects.filter(tournament=tournament, players__user=ivan).exclude(round__number=1)
    assert later.exists() and all(p.forfeit and p.table_id is None for p in later)
    assert MatchPlayer.objects.filter(user=ivan).count() == 1  # the match it resigned


def test_a_finished_tournament_keeps_its_entry() -> None:
    organiser = make_user("organiser")
    tournament, ivan = started_with_player(organiser, 1, "ivan")
    play_running_games(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    user_anonymise(user=ivan)
    assert Entry.objects.get(tournament=tournament, player=ivan).state == Entry.State.ACTIVE


# --- the signal and the page ------------------------------------------------------------------


def test_the_deletion_is_announced_inside_its_transaction() -> None:
    from django.db import connection

    seen: list[tuple[bool, bool]] = []

    def receiver(sender: type[User], *, user: User, **kwargs: Any) -> None:
        seen.append((user.is_deleted, connection.in_atomic_block))

    account_deleted.connect(receiver, dispatch_uid="test-receiver")
    try:
        user_anonymise(user=make_user("ivan"))
    finally:
        account_deleted.disconnect(dispatch_uid="test-receiver")
    assert seen == [(True, True)]


def test_deleting_through_the_page_frees_the_seats(client: Client) -> None:
    ivan = User.objects.create_user(
        username="ivan", email="ivan@example.com", password=PASSWORD, display_name="Ivan"
    )
    match = start_match(humans=[ivan, make_user("olga")])
    client.force_login(ivan)
    response = client.post(reverse("accounts:delete"), {"password": PASSWORD})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert not Seat.objects.filter(user=ivan).exists()
