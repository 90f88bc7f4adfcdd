"""Bot accounts are found by username and ``is_bot``, never by display name, and a human holding a
bot's name (an account from before bot names were reserved) never breaks a table or a
tournament: that bot number is skipped."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import bot_accounts, bot_ensure
from games.engine import Rules
from games.models import Seat
from play import services as live
from tests.play.services_support import make_user
from tests.tournaments.support import tournament_settings
from tournaments import services as tournaments
from tournaments.models import Entry

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def squatter(db: None) -> User:
    """A human called "Bot Easy 2", as an old account could be (made past today's form)."""
    return User.objects.create_user(username="old-member", display_name="Bot Easy 2", password=None)


def test_numbered_bots_skip_a_name_a_human_holds(squatter: User) -> None:
    bots = bot_accounts(level=User.BotLevel.EASY, count=3, exclude=set())
    assert all(bot.is_bot and bot.bot_level == "easy" for bot in bots)
    assert squatter not in bots
    assert [bot.display_name for bot in bots] == ["Bot Easy", "Bot Easy 3", "Bot Easy 4"]


def test_a_human_with_a_bots_username_is_never_taken_for_the_bot(db: None) -> None:
    """allauth makes usernames from the email's local part: bot-easy-2@... once gave bot-easy-2."""
    human = User.objects.create_user(username="bot-easy-2", display_name="Ivan", password=None)
    bots = bot_accounts(level=User.BotLevel.EASY, count=2, exclude=set())
    assert human not in bots and all(bot.is_bot for bot in bots)


def test_the_first_bot_is_had_even_when_its_name_is_held(db: None) -> None:
    User.objects.create_user(username="old-member", display_name="Bot Strong", password=None)
    bot, created = bot_ensure(level=User.BotLevel.STRONG)
    assert created and bot.is_bot and bot.display_name == "Bot Strong 2"
    assert bot_ensure(level=User.BotLevel.STRONG) == (bot, False)


def test_filling_a_table_with_easy_bots_works_past_a_squatter(client: Client, squatter: User) -> None:
    creator = make_user("olga")
    table = live.table_create(creator=creator, rules=Rules(players=4))
    client.force_login(creator)
    response = client.post(reverse("games:seats_fill", args=[table.pk]), {"level": "easy"})
    assert response.status_code == 302
    seated = User.objects.filter(seats__table=table).exclude(pk=creator.pk)
    assert seated.count() == 3 and all(user.is_bot for user in seated)
    assert not Seat.objects.filter(user=squatter).exists()


def test_adding_bots_to_a_tournament_works_past_a_squatter(client: Client, squatter: User) -> None:
    organiser = make_user("organiser")
    tournament = tournaments.tournament_create(organiser=organiser, settings=tournament_settings())
    tournaments.registration_open(tournament_id=tournament.pk, user=organiser)
    client.force_login(organiser)
    response = client.post(reverse("tournaments:bots", args=[tournament.pk]), {"level": "easy", "count": 4})
    assert response.status_code == 302
    entered = [entry.player for entry in Entry.objects.filter(tournament=tournament)]
    assert len(entered) == 4 and all(player.is_bot for player in entered)


def test_signing_up_from_a_bots_address_gets_an_ordinary_username(client: Client) -> None:
    client.post(
        reverse("account_signup"),
        {
            "email": "bot-easy-3@example.com",
            "display_name": "Ivan",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    user = User.objects.get(email="bot-easy-3@example.com")
    assert not user.username.startswith("bot-")
    bots = bot_accounts(level=User.BotLevel.EASY, count=3, exclude=set())
    assert [bot.username for bot in bots] == ["bot-easy", "bot-easy-2", "bot-easy-3"]


@pytest.mark.parametrize("address", ["deleted-5@example.com", "demo@example.org", "bot@example.com"])
def test_the_sites_own_usernames_are_not_generated_for_members(client: Client, address: str) -> None:
    client.post(
        reverse("account_signup"),
        {"email": address, "display_name": "Ivan", "password1": PASSWORD, "password2": PASSWORD},
    )
    username = User.objects.get(email=address).username
    assert not username.startswith(("deleted-", "bot-")) and username not in {"demo", "bot"}
