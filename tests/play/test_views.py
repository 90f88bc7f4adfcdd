"""The pages of live play: lobby, creating a table, the table page, seats, bots and the match page
with its POST fallback, resign, abort and play again."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine import Rules
from games.fairness import seed_commitment
from games.models import Match, Table
from play import selectors, services

from .services_support import make_user, start_match, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def seed(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "views-seed")
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
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[table.pk])
    assert table.rules["variant"] == "perevodnoy" and table.turn_seconds == 15
    assert table.seats.get().user == host
    page = client.get(response["Location"])
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
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_private_table_needs_its_invite_link() -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(players=3), private=True)
    guest_client = client_for(guest)
    assert guest_client.get(reverse("games:table", args=[table.pk])).status_code == 404
    invite = guest_client.get(reverse("games:table_invite", args=[table.invite_token]))
    assert invite.status_code == 302 and table.invite_token in invite["Location"]
    assert guest_client.get(invite["Location"]).status_code == 200
    guest_client.post(reverse("games:seat_take", args=[table.pk]), {"invite": table.invite_token})
    assert table.seats.filter(user=guest).exists()
    # The host sees the invite link on the table page.
    host_page = client_for(host).get(reverse("games:table", args=[table.pk])).content.decode()
    assert reverse("games:table_invite", args=[table.invite_token]) in host_page


def test_a_seat_position_that_is_not_a_number_takes_the_next_free_seat() -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(players=3))
    response = client_for(guest).post(reverse("games:seat_take", args=[table.pk]), {"position": "²"})
    assert response.status_code == 302
    assert table.seats.get(user=guest).position == 1


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
    assert response["Location"] == reverse("games:match", args=[match.pk])
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


def test_the_match_page_commits_to_the_seed_without_showing_it(seed: str) -> None:
    """Provably fair deals: the commitment is on the page from the deal, the seed is not."""
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob])
    page = client_for(alice).get(reverse("games:match", args=[match.pk])).content.decode()
    assert seed_commitment(match) in page
    assert seed not in page


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
    assert response["Location"] == reverse("games:match", args=[newer.pk])
    client_for(bob).post(reverse("games:match_resign", args=[newer.pk]))
    assert newer.players.get(user=bob).resigned


def test_resigning_or_aborting_from_the_page_keeps_the_page_and_a_refusal_says_why(
    seed: str, django_capture_on_commit_callbacks: Any
) -> None:
    """The page's forms post through htmx: no redirect (which reloaded the page), the socket
    shows the change; a refused one gets the error line and changes nothing."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = start_match(humans=[alice, bob])
    htmx = {"HX-Request": "true"}
    refused = client_for(carol).post(reverse("games:match_abort", args=[match.pk]), headers=htmx)
    assert refused.status_code == 200 and 'id="match-error"' in refused.content.decode()
    assert "HX-Redirect" not in refused
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.version == 0
    with django_capture_on_commit_callbacks() as callbacks:
        resigned = client_for(bob).post(reverse("games:match_resign", args=[match.pk]), headers=htmx)
    assert resigned.status_code == 204 and not resigned.content and "HX-Redirect" not in resigned
    assert match.players.get(user=bob).resigned
    assert callbacks, "the change is broadcast after its commit, so every socket shows it"
    again = client_for(bob).post(reverse("games:match_resign", args=[match.pk]), headers=htmx)
    assert again.status_code == 200 and 'id="match-error"' in again.content.decode()
    plain = client_for(bob).post(reverse("games:match_resign", args=[match.pk]))
    assert plain.status_code == 302 and plain["Location"] == reverse("games:match", args=[match.pk])


@pytest.mark.parametrize(
    "rules",
    [
        Rules.for_variant("perevodnoy", players=3, transfer_by_trump_show=True),
        Rules.for_variant("circle", players=4, jokers=2),
        Rules.for_variant("podkidnoy", players=4, teams=True),
    ],
    ids=["perevodnoy-3", "circle-4-jokers", "podkidnoy-teams"],
)
def test_the_match_page_renders_through_a_whole_game(seed: str, rules: Rules) -> None:
    """Every few moves of a game with bots, the human's page and a spectator's page render."""
    alice, carol = make_user("alice"), make_user("carol")
    match = start_match(humans=[alice], rules=rules, bot_level="random")
    viewers = {alice: client_for(alice), carol: client_for(carol)}
    url = reverse("games:match", args=[match.pk])
    for step in range(2000):
        match.refresh_from_db()
        if step % 7 == 0 or not match.is_active:
            for client in viewers.values():
                assert client.get(url).status_code == 200
        if not match.is_active:
            break
        state = state_of(match)
        seat = min(state.awaiting())
        if seat == 0:
            services.action_apply(
                match_id=match.pk,
                user=alice,
                action_text=str(state.default_action(0)),
                expected_version=match.version,
            )
        else:
            services.bot_turn(match_id=match.pk, version=match.version, seat=seat)
    assert match.status == Match.Status.FINISHED
    assert "match-result" in viewers[carol].get(url).content.decode()


def test_a_casual_table_of_bots_only_can_be_created_and_watched(seed: str) -> None:
    host = make_user("host")
    client = client_for(host)
    client.post(
        reverse("games:table_create"),
        {
            "variant": "podkidnoy",
            "players": 3,
            "deck": 36,
            "throw_in": "all",
            "jokers": 0,
            "joker_beats": "any",
            "joker_last": "defence_only",
            "turn_seconds": 15,
            "watch": "on",
        },
    )
    table = Table.objects.get()
    assert not table.seats.exists()
    response = client.post(reverse("games:seats_fill", args=[table.pk]), {"level": "random"})
    match = Match.objects.get()
    assert response["Location"] == reverse("games:match", args=[match.pk])
    assert table.seats.filter(user__is_bot=True).count() == 3
    page = client.get(response["Location"]).content.decode()
    assert "You are watching" in page and "data-card=" not in page


def test_a_rated_table_cannot_be_watch_only() -> None:
    client = client_for(make_user("host"))
    response = client.post(
        reverse("games:table_create"),
        {
            "variant": "podkidnoy",
            "players": 2,
            "deck": 36,
            "throw_in": "all",
            "jokers": 0,
            "joker_beats": "any",
            "joker_last": "defence_only",
            "turn_seconds": 30,
            "rated": "on",
            "watch": "on",
            "first_bout_limit_5": "on",
            "draws": "on",
        },
    )
    assert response.status_code == 200 and not Table.objects.exists()


def test_the_status_shows_whose_move_with_a_countdown(seed: str) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob], turn_seconds=15)
    seat = min(state_of(match).awaiting())
    mover, waiter = (alice, bob) if seat == 0 else (bob, alice)
    url = reverse("games:match", args=[match.pk])
    mine = client_for(mover).get(url).content.decode()
    theirs = client_for(waiter).get(url).content.decode()
    assert 'data-your-move="1"' in mine and "Your move" in mine
    assert 'data-your-move="0"' in theirs and f"Waiting for {mover.display_name}" in theirs
    for html in (mine, theirs):
        assert 'class="timer"' in html and 'max="15"' in html and "data-remaining-ms=" in html
