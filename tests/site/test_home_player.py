"""A signed-in player's home page (issue #17, item 16): their live games, the tables where they
wait, their tournaments not over yet, and quick play; a visitor keeps the introduction."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import Rules
from play import selectors, services
from tests.play.services_support import make_user
from tests.tournaments.support import tournament_settings
from tournaments import services as cups

pytestmark = pytest.mark.django_db


def test_the_home_page_lists_the_players_games_tables_and_tournaments() -> None:
    olga, ivan = make_user("olga"), make_user("ivan")
    live_table = services.table_create(creator=olga, rules=Rules(players=2))
    services.table_join(table_id=live_table.pk, user=ivan)
    live = selectors.table_current_match(table_id=live_table.pk)
    assert live is not None
    waiting = services.table_create(creator=olga, rules=Rules(players=3))
    someone_elses = services.table_create(creator=ivan, rules=Rules(players=3))
    cup = cups.tournament_create(
        organiser=ivan,
        settings=tournament_settings(name="Winter cup", starts_at=timezone.now() + timedelta(days=1)),
    )
    cups.registration_open(tournament_id=cup.pk, user=ivan)
    cups.entry_register(tournament_id=cup.pk, user=olga)
    type(olga).objects.filter(pk=olga.pk).update(date_joined=timezone.now() - timedelta(days=3))
    client = Client()
    client.force_login(olga)
    html = client.get(reverse("home")).content.decode()
    assert f'data-match="{live.pk}"' in html and "ivan" in html
    assert f'data-table="{waiting.pk}"' in html
    assert f'data-table="{someone_elses.pk}"' not in html
    assert f'data-tournament="{cup.pk}"' in html and "Winter cup" in html
    assert "Welcome back, olga" in html


def test_a_player_who_just_signed_up_is_welcomed_not_welcomed_back() -> None:
    client = Client()
    client.force_login(make_user("olga"))
    html = client.get(reverse("home")).content.decode()
    assert "Welcome, olga" in html and "Welcome back" not in html


def test_a_player_with_nothing_on_is_offered_a_bot_and_the_lobby() -> None:
    client = Client()
    client.force_login(make_user("olga"))
    html = client.get(reverse("home")).content.decode()
    assert "You are not in a game" in html and "You are not entered in a tournament" in html
    assert f'action="{reverse("games:bot_game")}"' in html


def test_a_finished_tournament_and_an_ended_game_are_not_listed() -> None:
    olga, ivan = make_user("olga"), make_user("ivan")
    table = services.table_create(creator=olga, rules=Rules(players=2))
    services.table_join(table_id=table.pk, user=ivan)
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None
    services.match_abort(match_id=match.pk, user=olga)
    client = Client()
    client.force_login(olga)
    html = client.get(reverse("home")).content.decode()
    assert f'data-match="{match.pk}"' not in html


def test_the_nav_marks_profile_on_ones_own_page_only(client: Client) -> None:
    """On another player's page "Profile" (one's own) is not the current page."""
    alice, bob = make_user("alice"), make_user("bob")
    client.force_login(alice)
    mine = client.get(reverse("club:profile", args=[alice.pk])).content.decode()
    theirs = client.get(reverse("club:profile", args=[bob.pk])).content.decode()
    me_link = f'<a href="{reverse("accounts:me")}"'
    assert f'{me_link} aria-current="page">' in mine
    assert f"{me_link}>" in theirs and f'{me_link} aria-current="page">' not in theirs
