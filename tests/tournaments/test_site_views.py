"""Tournament pages: who may see and run what (strangers get 403 or 404, never a 500), the
settings form's refusals with messages, and each page rendering in every state."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Match
from tests.tournaments.support import (
    open_with_bots,
    play_running_games,
    started_with_player,
    tournament_settings,
)
from tournaments import services
from tournaments.models import Entry, Pairing, Tournament

pytestmark = pytest.mark.django_db


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def form_data(**overrides: Any) -> dict[str, Any]:
    """A valid POST of the settings form."""
    data: dict[str, Any] = {
        "name": "Spring open",
        "description": "Bring your best throw-ins.",
        "format": "single",
        "legs": "1",
        "rounds": "0",
        "final_table": "0",
        "best_of": "1",
        "turn_seconds": "30",
        "min_players": "2",
        "max_players": "8",
        "starts_at": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        "registration_deadline": "",
        "checkin_minutes": "0",
        "variant": "podkidnoy",
        "players": "2",
        "deck": "36",
        "throw_in": "all",
        "first_bout_limit_5": "on",
        "draws": "on",
        "jokers": "0",
        "joker_beats": "any",
        "joker_last": "defence_only",
        "bots_allowed": "on",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


# --- pages --------------------------------------------------------------------------------------


def test_the_list_shows_upcoming_running_and_finished(organiser: User) -> None:
    upcoming = open_with_bots(organiser, 2, name="Upcoming cup")
    running = open_with_bots(organiser, 2, name="Running cup")
    services.tournament_start(tournament_id=running.pk, user=organiser)
    finished = open_with_bots(organiser, 2, name="Finished cup")
    services.tournament_start(tournament_id=finished.pk, user=organiser)
    play_running_games(finished)
    services.tournament_create(organiser=organiser, settings=tournament_settings(name="Secret draft"))

    page = client_for(None).get(reverse("tournaments")).content.decode()
    for tournament in (upcoming, running, finished):
        assert tournament.name in page
    assert "Secret draft" not in page
    assert "Secret draft" in client_for(organiser).get(reverse("tournaments")).content.decode()


def test_the_page_renders_in_every_state_and_format(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    viewer = make_player("viewer")
    for fmt, bots, extra in (
        ("single", 5, {"third_place": True}),
        ("double", 4, {}),
        ("swiss", 4, {"rounds": 2}),
        ("multi_table", 6, {"rounds": 1, "final_table": 3, "rules": {"variant": "podkidnoy", "players": 3}}),
    ):
        tournament = open_with_bots(organiser, bots, format=fmt, name=f"Cup {fmt}", **extra)
        for client in (client_for(None), client_for(viewer), client_for(organiser)):
            assert client.get(reverse("tournaments:detail", args=[tournament.pk])).status_code == 200
        services.tournament_start(tournament_id=tournament.pk, user=organiser)
        response = client_for(organiser).get(reverse("tournaments:detail", args=[tournament.pk]))
        assert response.status_code == 200
        html = response.content.decode()
        if fmt in ("single", "double"):
            assert 'class="bracket' in html
        else:
            assert "How ties are broken" in html and "Buchholz" in html
        play_running_games(tournament)
        for client in (client_for(None), client_for(organiser)):
            response = client.get(reverse("tournaments:detail", args=[tournament.pk]))
            html = response.content.decode()
            # A Swiss event can end level on points and every tiebreak: the first place is shared.
            assert response.status_code == 200 and ("Winner" in html or "Shared first place" in html)
        live = client_for(viewer).get(reverse("tournaments:live", args=[tournament.pk]))
        assert live.status_code == 200 and live.content.decode().lstrip().startswith(
            '<div id="tournament-live"'
        )


def test_a_player_sees_a_notice_with_a_link_to_their_table(organiser: User) -> None:
    tournament, anna = started_with_player(organiser, 1, "anna")
    pairing = Pairing.objects.get(tournament=tournament)
    assert pairing.table_id is not None
    match = Match.objects.get(table_id=pairing.table_id)
    for url in (reverse("tournaments:detail", args=[tournament.pk]), reverse("tournaments")):
        html = client_for(anna).get(url).content.decode()
        assert "is ready" in html and reverse("games:match", args=[match.pk]) in html


# --- permissions --------------------------------------------------------------------------------


ORGANISER_POSTS = ["open", "close", "start", "pause", "resume", "cancel", "finish"]


@pytest.mark.parametrize("action", ORGANISER_POSTS)
def test_strangers_get_403_on_organiser_actions(
    organiser: User, make_player: Callable[[str], User], action: str
) -> None:
    tournament = open_with_bots(organiser, 2)
    stranger = client_for(make_player("stranger"))
    response = stranger.post(reverse("tournaments:action", args=[tournament.pk, action]))
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION


def test_other_organiser_pages_are_403_and_drafts_404(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = open_with_bots(organiser, 2)
    bot = tournament.entries.first()
    assert bot is not None
    stranger = client_for(make_player("stranger"))
    pairing_free = [
        ("get", reverse("tournaments:edit", args=[tournament.pk])),
        ("post", reverse("tournaments:bots", args=[tournament.pk])),
        ("post", reverse("tournaments:remove", args=[tournament.pk, bot.player_id])),
        ("post", reverse("tournaments:correct", args=[tournament.pk, 1])),
    ]
    for method, url in pairing_free:
        assert getattr(stranger, method)(url).status_code == 403, url
    draft = services.tournament_create(organiser=organiser, settings=tournament_settings())
    for url in (
        reverse("tournaments:detail", args=[draft.pk]),
        reverse("tournaments:live", args=[draft.pk]),
        reverse("tournaments:edit", args=[draft.pk]),
    ):
        assert stranger.get(url).status_code == 404
        assert client_for(None).get(url).status_code in (302, 404)
    assert stranger.post(reverse("tournaments:action", args=[draft.pk, "open"])).status_code == 404
    assert stranger.get(reverse("tournaments:detail", args=[99999])).status_code == 404
    assert (
        client_for(organiser)
        .post(reverse("tournaments:action", args=[tournament.pk, "nonsense"]))
        .status_code
        == 404
    )
    assert Entry.objects.filter(pk=bot.pk, state=Entry.State.ACTIVE).exists()


def test_anonymous_visitors_are_sent_to_log_in(organiser: User) -> None:
    tournament = open_with_bots(organiser, 2)
    for url in (
        reverse("tournaments:create"),
        reverse("tournaments:register", args=[tournament.pk]),
        reverse("tournaments:action", args=[tournament.pk, "start"]),
    ):
        response = client_for(None).post(url)
        assert response.status_code == 302 and "login" in response["Location"]


def test_the_organiser_and_a_tournament_director_run_it_through_the_pages(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = services.tournament_create(organiser=organiser, settings=tournament_settings())
    client = client_for(organiser)
    client.post(reverse("tournaments:action", args=[tournament.pk, "open"]))
    client.post(reverse("tournaments:bots", args=[tournament.pk]), {"level": "easy", "count": "3"})
    director = make_player("director")
    director.is_staff = True
    director.save()
    director.groups.add(services.directors_group_ensure())
    response = client_for(director).post(reverse("tournaments:action", args=[tournament.pk, "start"]))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.entries.count() == 3


def test_refused_player_actions_come_back_as_messages(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = open_with_bots(organiser, 2, max_players=2)
    anna = client_for(make_player("anna"))
    response = anna.post(reverse("tournaments:register", args=[tournament.pk]), follow=True)
    assert response.status_code == 200 and "The tournament is full." in response.content.decode()
    response = anna.post(reverse("tournaments:check_in", args=[tournament.pk]), follow=True)
    assert "Check-in is not open." in response.content.decode()
    response = anna.post(reverse("tournaments:withdraw", args=[tournament.pk]), follow=True)
    assert "You are not registered." in response.content.decode()


# --- the settings form --------------------------------------------------------------------------


def test_a_valid_form_creates_a_draft(make_player: Callable[[str], User]) -> None:
    host = make_player("host")
    response = client_for(host).post(reverse("tournaments:create"), form_data())
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournaments:detail", args=[tournament.pk]
    )
    assert tournament.status == Tournament.Status.DRAFT and tournament.organiser == host
    assert tournament.rules["variant"] == "podkidnoy" and tournament.rules["players"] == 2


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"name": ""}, "This field is required."),
        ({"players": "4"}, "This format is played at tables of two."),
        (
            {"format": "multi_table", "rounds": "2"},
            "Multi-table rounds seat three to six players at a table.",
        ),
        ({"format": "swiss"}, "Choose how many rounds are played."),
        ({"min_players": "9", "max_players": "4"}, "The maximum cannot be below the minimum."),
        ({"starts_at": "2001-01-01T10:00"}, "The start must be in the future."),
        ({"starts_at": "not a date"}, "Enter a valid date/time."),
        ({"registration_deadline": "2999-01-01T10:00"}, "Registration must close before the start."),
        (
            {"deck": "24", "format": "multi_table", "rounds": "1", "players": "6"},
            "the 24-card deck cannot deal six",
        ),
        ({"rated": "on", "redeal": "on"}, "A rated table plays the variant&#x27;s standard options"),
        ({"format": "multi_table", "rounds": "1", "players": "4", "final_table": "5"}, "A final table seats"),
        ({"best_of": "4"}, "Select a valid choice."),
    ],
)
def test_the_form_refuses_bad_input_with_a_message(
    make_player: Callable[[str], User], overrides: dict[str, str], message: str
) -> None:
    response = client_for(make_player("host")).post(reverse("tournaments:create"), form_data(**overrides))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_editing_is_refused_once_running(organiser: User) -> None:
    tournament = open_with_bots(organiser, 2)
    client = client_for(organiser)
    assert client.get(reverse("tournaments:edit", args=[tournament.pk])).status_code == 200
    response = client.post(reverse("tournaments:edit", args=[tournament.pk]), form_data(name="Renamed"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Renamed"
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    response = client.post(reverse("tournaments:edit", args=[tournament.pk]), form_data(name="Too late"))
    assert "can be edited only before it starts" in response.content.decode()


def test_a_players_tournament_history_lists_places(organiser: User) -> None:
    from django.template.loader import render_to_string

    from tournaments import selectors

    tournament = open_with_bots(organiser, 2, name="History cup")
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    play_running_games(tournament)
    winner = tournament.entries.get(place=1).player
    html = render_to_string("tournaments/_history.html", {"entries": selectors.player_history(user=winner)})
    assert "History cup" in html and "place 1" in html
    assert "No tournaments yet." in render_to_string("tournaments/_history.html", {"entries": []})


def test_a_players_profile_lists_their_tournaments_with_places(organiser: User) -> None:
    tournament = open_with_bots(organiser, 4)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    tournament = play_running_games(tournament)
    winner = tournament.entries.get(place=1).player

    page = Client().get(reverse("club:profile", args=[winner.pk])).content.decode()

    assert tournament.name in page
    assert reverse("tournaments:detail", args=[tournament.pk]) in page
    assert "place 1" in page


def test_the_next_table_notice_follows_the_player_around_the_site(organiser: User) -> None:
    """A player waiting for their pairing learns it is dealt on any page, not only the tournament's."""
    tournament, player = started_with_player(organiser, 3, "wanderer")
    client = client_for(player)
    for url in (reverse("home"), reverse("history"), reverse("leaderboard")):
        page = client.get(url).content.decode()
        assert "is ready" in page and tournament.name in page, url
    assert "is ready" not in client_for(organiser).get(reverse("home")).content.decode()
