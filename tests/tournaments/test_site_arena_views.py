"""Arena pages: the form, the page in every state and for every viewer (clock, leaderboard,
the player's own state and buttons), joining, pausing, coming back and berserk through the
pages, a game's banner with its link back and socket, and nothing on them that depends on
cards."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from games.engine import Rules
from games.models import Match, MatchPlayer
from tests.tournaments.support import arena_matches, end_arena_now, finish_one, open_arena
from tests.tournaments.test_site_views import form_data
from tournaments import services
from tournaments.models import Entry, PairingPlayer, Tournament

pytestmark = pytest.mark.django_db


def client_for(user: User | None, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    return client


def page(client: Client, tournament: Tournament) -> str:
    response = client.get(reverse("tournaments:detail", args=[tournament.pk]))
    assert response.status_code == 200
    return response.content.decode()


def live(client: Client, tournament: Tournament) -> str:
    """The live part alone (what the socket makes the page fetch): no site header around it."""
    response = client.get(reverse("tournaments:live", args=[tournament.pk]))
    assert response.status_code == 200
    return response.content.decode()


CARD = re.compile(r'data-card=|class="card\b|[♠♥♦♣]')


def test_the_form_creates_an_arena_of_tables(organiser: User) -> None:
    data: dict[str, Any] = form_data(format="arena", players="4", duration_minutes="45", berserk="on")
    response = client_for(organiser).post(reverse("tournaments:create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Spring open")
    assert tournament.is_arena and tournament.duration_minutes == 45 and tournament.berserk
    assert tournament.rules["players"] == 4 and tournament.best_of == 1


def test_the_form_needs_a_length_for_an_arena_and_ignores_it_elsewhere(organiser: User) -> None:
    response = client_for(organiser).post(
        reverse("tournaments:create"), form_data(format="arena", players="3")
    )
    assert response.status_code == 200 and "Choose how long the arena runs." in response.content.decode()
    data = form_data(duration_minutes="45", berserk="on")
    assert client_for(organiser).post(reverse("tournaments:create"), data).status_code == 302
    single = Tournament.objects.get(name="Spring open")
    assert single.duration_minutes == 0 and not single.berserk


def test_the_page_in_every_state(organiser: User, make_player: Callable[[str], User]) -> None:
    anna = make_player("anna")
    tournament = open_arena(organiser, 3)
    html = page(client_for(None), tournament)
    assert "Log in to join" in html and "30 minutes" in html
    assert "Join the arena" in page(client_for(anna), tournament)

    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    html = page(client_for(None), tournament)
    assert "Leaderboard" in html and "data-ends-in-ms" in html and "Games in play" in html
    assert "1 player waiting" in html  # three bots: one table, one bot alone
    client = client_for(anna)
    response = client.post(reverse("tournaments:register", args=[tournament.pk]))
    assert response.status_code == 302
    html = page(client, tournament)
    assert "You are playing a game." in html and "Go to your game" in html and "data-follow=" in html
    assert "Berserk: halve my timer" in html and "Pause" in html
    assert not CARD.search(live(client, tournament)), "an arena page shows no card"

    for match in arena_matches(tournament):
        finish_one(match)
    html = page(client_for(None), tournament)
    assert 'class="sheet-mark' in html
    end_arena_now(tournament)
    for match in arena_matches(tournament):
        finish_one(match)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    html = page(client, tournament)
    assert "You finished in place" in html and ("Winner" in html or "Shared first place" in html)
    assert not CARD.search(live(client, tournament))


def test_the_page_in_russian(organiser: User, make_player: Callable[[str], User]) -> None:
    tournament = open_arena(organiser, 3, rules=Rules(players=3, deck=36).to_dict())
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    anna = make_player("anna")
    client = client_for(anna, "ru")
    client.post(reverse("tournaments:register", args=[tournament.pk]))
    html = page(client, tournament)
    with translation.override("ru"):
        assert "Арена" in html and "Турнирная таблица" in html
    assert "Waiting" not in html and "Leaderboard" not in html


def test_a_waiting_player_is_told_what_they_wait_for(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    anna, bob = make_player("anna"), make_player("bob")
    tournament = open_arena(organiser, 0, rules=Rules(players=4, deck=36).to_dict())
    for player in (anna, bob):
        services.entry_register(tournament_id=tournament.pk, user=player)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    html = page(client_for(anna), tournament)
    assert "Waiting for 2 more players for a table of 4." in html
    assert "three players are enough" in html

    duel = open_arena(organiser, 2, name="Duel arena")
    services.tournament_start(tournament_id=duel.pk, user=organiser)
    services.entry_register(tournament_id=duel.pk, user=anna)
    assert "You are the only player waiting" in page(client_for(anna), duel)


def test_pause_come_back_withdraw_and_join_again_through_the_page(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    anna = make_player("anna")
    tournament = open_arena(organiser, 1)
    client = client_for(anna)
    client.post(reverse("tournaments:register", args=[tournament.pk]))
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    client.post(reverse("tournaments:arena_pause", args=[tournament.pk]))
    assert Entry.objects.get(tournament=tournament, player=anna).paused
    for match in arena_matches(tournament):
        finish_one(match)
    html = page(client, tournament)
    assert "You are paused" in html and "Come back" in html
    client.post(reverse("tournaments:arena_resume", args=[tournament.pk]))
    assert not Entry.objects.get(tournament=tournament, player=anna).paused
    response = client.post(reverse("tournaments:arena_resume", args=[tournament.pk]), follow=True)
    assert "You are not paused." in response.content.decode()
    client.post(reverse("tournaments:withdraw", args=[tournament.pk]))
    html = page(client, tournament)
    assert "You withdrew" in html and "Join again" in html
    client.post(reverse("tournaments:register", args=[tournament.pk]))
    assert Entry.objects.get(tournament=tournament, player=anna).is_active


def test_berserk_from_the_games_banner_goes_back_to_the_game(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    anna = make_player("anna")
    tournament = open_arena(organiser, 1)
    services.entry_register(tournament_id=tournament.pk, user=anna)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    client = client_for(anna)
    html = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "A game of the arena" in html and reverse("tournaments:detail", args=[tournament.pk]) in html
    assert (
        f"/ws/tournament/{tournament.pk}/?v={tournament.version + 1}" in html
        or 'ws-connect="/ws/tournament/' in html
    )
    assert "Berserk: halve my timer" in html
    back = reverse("games:match", args=[match.pk])
    response = client.post(reverse("tournaments:arena_berserk", args=[tournament.pk]), {"next": back})
    assert response.status_code == 302 and response["Location"] == back
    assert PairingPlayer.objects.get(user=anna).berserk
    assert MatchPlayer.objects.get(match=match, user=anna).turn_seconds == 15
    html = client.get(back).content.decode()
    assert "Your turn timer is halved in this game." in html
    evil = client.post(
        reverse("tournaments:arena_berserk", args=[tournament.pk]), {"next": "https://evil.example/"}
    )
    assert evil["Location"] == reverse("tournaments:detail", args=[tournament.pk])


def test_the_banner_after_a_game_shows_the_next_one(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    anna = make_player("anna")
    tournament = open_arena(organiser, 3)
    services.entry_register(tournament_id=tournament.pk, user=anna)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    first = next(m for m in arena_matches(tournament) if m.players.filter(user=anna).exists())
    finish_one(first)
    others = [m for m in arena_matches(tournament) if not m.players.filter(user=anna).exists()]
    for match in others:
        finish_one(match)
    nxt = next(m for m in arena_matches(tournament) if m.players.filter(user=anna).exists())
    url = reverse("tournaments:banner", args=[tournament.pk]) + f"?match={first.pk}"
    html = client_for(anna).get(url).content.decode()
    assert html.lstrip().startswith('<section id="tournament-banner"')
    assert "Your next game is ready." in html and f'data-follow-id="{nxt.pk}"' in html
    assert not CARD.search(html)
    other = open_arena(organiser, 2, name="Other arena")
    wrong = reverse("tournaments:banner", args=[other.pk]) + f"?match={first.pk}"
    assert client_for(anna).get(wrong).status_code == 404
    for query in ("", "?match=abc", "?match=²", "?match=99999"):
        assert (
            client_for(anna).get(reverse("tournaments:banner", args=[tournament.pk]) + query).status_code
            == 404
        )


def test_a_game_of_another_format_links_back_to_its_tournament(organiser: User) -> None:
    from tests.tournaments.support import started_with_player

    tournament, anna = started_with_player(organiser, 1, "anna")
    match = Match.objects.get(table__tournament_pairing__tournament=tournament)
    html = client_for(anna).get(reverse("games:match", args=[match.pk])).content.decode()
    assert "Back to the tournament" in html and 'ws-connect="/ws/tournament/' not in html


def test_bots_join_a_running_arena_through_the_organisers_form(organiser: User) -> None:
    tournament = open_arena(organiser, 2)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    html = page(client_for(organiser), tournament)
    assert "Add bots" in html
    client_for(organiser).post(
        reverse("tournaments:bots", args=[tournament.pk]), {"level": "easy", "count": "2"}
    )
    assert tournament.entries.filter(state=Entry.State.ACTIVE).count() == 4
    assert len(arena_matches(tournament)) == 2


def test_the_clock_and_finish_now_on_the_page(organiser: User) -> None:
    tournament = open_arena(organiser, 2, duration_minutes=60)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    Tournament.objects.filter(pk=tournament.pk).update(
        ends_at=timezone.now() + timedelta(minutes=4, seconds=7)
    )
    html = page(client_for(None), tournament)
    clock = re.search(r'data-ends-in-ms="(\d+)">(\d+):(\d\d)</span>', html)
    assert clock is not None  # milliseconds for the script, minutes and seconds for people
    left_ms, minutes, seconds = (int(part) for part in clock.groups())
    assert 0 <= 247_000 - left_ms < 60_000  # however slowly this machine rendered the page
    assert minutes * 60 + seconds == -(-left_ms // 1000)
    client_for(organiser).post(reverse("tournaments:action", args=[tournament.pk, "finish"]))
    html = page(client_for(None), tournament)
    assert "Time is up" in html and "1 game is still being played; it counts." in html


def test_every_game_in_play_is_linked_for_anyone_to_watch(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    anna = make_player("anna")
    tournament = open_arena(organiser, 3)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    client = client_for(anna)
    client.post(reverse("tournaments:register", args=[tournament.pk]))
    games = arena_matches(tournament)
    assert games
    urls = [reverse("games:match", args=[match.pk]) for match in games]
    for viewer, language, word in ((None, "en", "watch"), (organiser, "ru", "смотреть")):
        html = live(client_for(viewer, language), tournament)
        for url in urls:
            assert f'href="{url}">{word}</a>' in html
        response = client_for(viewer, language).get(urls[0])
        assert response.status_code == 200
    mine = next(m for m in games if m.players.filter(user=anna).exists())
    assert f'href="{reverse("games:match", args=[mine.pk])}">your game</a>' in live(client, tournament)
