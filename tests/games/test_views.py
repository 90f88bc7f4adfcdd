"""The pages of live play: lobby, creating a table, the table page, seats, bots and the match page
with its POST fallback, resign, abort and play again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import selectors, services
from games.engine import Rules
from games.models import Match, Table

from .services_support import make_user, start_match, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def seed(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(services, "new_seed", lambda: "views-seed")
    return "views-seed"


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_lists_open_public_tables_only() -> None:
    host = make_user("host")
    public = services.table_create(creator=host, rules=Rules(players=3))
    private = services.table_create(creator=host, rules=Rules(players=3), private=True)
    page = Client().get(reverse("games:lobby"))
    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-table="{public.pk}"' in html
    assert f'data-table="{private.pk}"' not in html
    assert 'ws-connect="/ws/lobby/"' in html


def test_creating_a_table_seats_the_creator_and_shows_the_table() -> None:
    host = make_user("host")
    client = client_for(host)
    response = client.post(
        reverse("games:table_create"),
        {
            "variant": "perevodnoy",
            "players": 3,
            "deck": 36,
            "throw_in": "all",
            "first_bout_limit_5": "on",
            "draws": "on",
            "jokers": 0,
            "joker_beats": "any",
            "joker_last": "defence_only",
            "turn_seconds": 15,
        },
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == reverse("games:table", args=[table.pk])
    assert table.rules["variant"] == "perevodnoy" and table.turn_seconds == 15
    assert table.seats.get().user == host
    page = client.get(response.url)
    assert page.status_code == 200 and "host" in page.content.decode()


def test_an_impossible_table_is_a_form_error_not_a_500() -> None:
    client = client_for(make_user("host"))
    response = client.post(
        reverse("games:table_create"),
        {
            "variant": "podkidnoy",
            "players": 6,
            "deck": 24,
            "throw_in": "all",
            "jokers": 0,
            "joker_beats": "any",
            "joker_last": "defence_only",
            "turn_seconds": 30,
        },
    )
    assert response.status_code == 200
    assert "cannot deal six to each" in response.content.decode()
    assert not Table.objects.exists()


def test_creating_needs_a_login() -> None:
    response = Client().get(reverse("games:table_create"))
    assert response.status_code == 302 and "login" in response.url


def test_a_private_table_needs_its_invite_link() -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(players=3), private=True)
    guest_client = client_for(guest)
    assert guest_client.get(reverse("games:table", args=[table.pk])).status_code == 404
    invite = guest_client.get(reverse("games:table_invite", args=[table.invite_token]))
    assert invite.status_code == 302 and table.invite_token in invite.url
    assert guest_client.get(invite.url).status_code == 200
    guest_client.post(reverse("games:seat_take", args=[table.pk]), {"invite": table.invite_token})
    assert table.seats.filter(user=guest).exists()
    # The host sees the invite link on the table page.
    host_page = client_for(host).get(reverse("games:table", args=[table.pk])).content.decode()
    assert reverse("games:table_invite", args=[table.invite_token]) in host_page


def test_take_and_leave_a_seat() -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(players=3))
    client = client_for(guest)
    client.post(reverse("games:seat_take", args=[table.pk]))
    assert table.seats.filter(user=guest).exists()
    response = client.post(reverse("games:seat_leave", args=[table.pk]))
    assert response.status_code == 302
    assert not table.seats.filter(user=guest).exists()


def test_filling_with_bots_starts_the_match_and_leads_to_it(seed: str) -> None:
    host = make_user("host")
    table = services.table_create(creator=host, rules=Rules(players=3))
    response = client_for(host).post(reverse("games:seats_fill", args=[table.pk]), {"level": "random"})
    match = Match.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:match", args=[match.pk])
    assert table.seats.filter(user__is_bot=True).count() == 2


def test_an_unknown_bot_level_is_a_message() -> None:
    host = make_user("host")
    table = services.table_create(creator=host, rules=Rules(players=3))
    response = client_for(host).post(
        reverse("games:seats_fill", args=[table.pk]), {"level": "grandmaster"}, follow=True
    )
    assert response.status_code == 200
    assert not Match.objects.exists()


def test_the_match_page_shows_the_players_own_hand(seed: str) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob])
    state = state_of(match)
    page = client_for(alice).get(reverse("games:match", args=[match.pk])).content.decode()
    for code in state.view(0).hand:
        assert f'data-card="{code}"' in page
    assert f'ws-connect="/ws/match/{match.pk}/"' in page
    assert 'id="match-hand"' in page and 'id="match-log"' in page


def test_the_post_fallback_plays_through_the_move_service(seed: str) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob])
    state = state_of(match)
    seat = min(state.awaiting())
    user = alice if seat == 0 else bob
    action = str(state.default_action(seat))
    response = client_for(user).post(
        reverse("games:match_action", args=[match.pk]),
        {"action": action, "version": match.version},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.version == 1 and match.moves.get().action == action


def test_a_refused_post_changes_nothing_and_says_why(seed: str) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob])
    response = client_for(alice).post(
        reverse("games:match_action", args=[match.pk]),
        {"action": "take", "version": match.version + 5},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert 'id="match-error"' in response.content.decode()
    assert "changed in the meantime" in response.content.decode()
    match.refresh_from_db()
    assert match.version == 0


def test_abort_resign_and_play_again(seed: str) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob])
    client_for(alice).post(reverse("games:match_abort", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    client_for(alice).post(reverse("games:match_again", args=[match.pk]))
    response = client_for(bob).post(reverse("games:match_again", args=[match.pk]))
    newer = selectors.table_current_match(table_id=match.table_id)
    assert newer is not None and newer.pk != match.pk
    assert response.url == reverse("games:match", args=[newer.pk])
    client_for(bob).post(reverse("games:match_resign", args=[newer.pk]))
    assert newer.players.get(user=bob).resigned
