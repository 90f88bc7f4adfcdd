"""Play a bot in one click (issue #17, item 15): the home page's and the lobby's form deals a
casual game against bots of the chosen level and leads to it; bad input changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine import Rules
from games.models import Match, Table
from play import services

from .services_support import make_user

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_one_click_with_the_defaults_deals_a_two_player_podkidnoy_against_an_easy_bot() -> None:
    olga = make_user("olga")
    response = client_for(olga).post(reverse("games:bot_game"))
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:match", args=[match.pk])
    players = list(match.players.select_related("user").order_by("seat"))
    assert [p.user == olga for p in players] == [True, False]
    assert players[1].user.is_bot and players[1].user.bot_level == "easy"
    assert Rules.from_dict(match.rules) == Rules.for_variant("podkidnoy", players=2)
    table = match.table
    assert not table.rated and not table.private and table.status == Table.Status.PLAYING


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "circle"])
def test_the_chosen_variant_players_and_level_are_dealt(variant: str) -> None:
    olga = make_user("olga")
    client_for(olga).post(reverse("games:bot_game"), {"variant": variant, "players": 4, "level": "medium"})
    match = Match.objects.get()
    assert Rules.from_dict(match.rules) == Rules.for_variant(variant, players=4)
    bots = [p.user for p in match.players.select_related("user") if p.user != olga]
    assert len(bots) == 3 and {b.bot_level for b in bots} == {"medium"}


def test_table_options_the_variant_reads_are_dealt_and_the_others_ignored() -> None:
    """A lesson's practice game posts the options it taught (``learn.lessons.Lesson.practice``)."""
    olga = make_user("olga")
    data = {"variant": "perevodnoy", "deck": "24", "transfer_by_trump_show": "true", "jokers": "2"}
    client_for(olga).post(reverse("games:bot_game"), data)
    rules = Rules.from_dict(Match.objects.get().rules)
    assert rules == Rules.for_variant("perevodnoy", deck=24, transfer_by_trump_show=True)


@pytest.mark.parametrize(
    "data",
    [
        {"level": "grandmaster"},
        {"variant": "poker"},
        {"players": 7},
        {"players": "two"},
        {"players": 6, "deck": 24},
        {"deck": 40},
    ],
)
def test_bad_choices_are_a_message_and_deal_nothing(data: dict[str, object]) -> None:
    olga = make_user("olga")
    response = client_for(olga).post(reverse("games:bot_game"), data, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("games:lobby")
    assert list(response.context["messages"])
    assert not Table.objects.exists() and not Match.objects.exists()


def test_a_visitor_is_sent_to_log_in_and_a_get_is_refused() -> None:
    response = Client().post(reverse("games:bot_game"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    assert client_for(make_user("olga")).get(reverse("games:bot_game")).status_code == 405
    assert not Table.objects.exists()


def test_a_refused_deal_keeps_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(**_kwargs: object) -> None:
        raise services.TableError("no bots today")

    monkeypatch.setattr("play.services.quick.seats_fill_with_bots", refuse)
    response = client_for(make_user("olga")).post(reverse("games:bot_game"), follow=True)
    assert "no bots today" in response.content.decode()
    assert not Table.objects.exists()


def test_the_form_is_on_the_lobby_and_the_home_page_for_a_player_only() -> None:
    action = f'action="{reverse("games:bot_game")}"'
    player = client_for(make_user("olga"))
    assert action in player.get(reverse("games:lobby")).content.decode()
    assert action in player.get(reverse("home")).content.decode()
    assert action not in Client().get(reverse("games:lobby")).content.decode()
    assert action not in Client().get(reverse("home")).content.decode()
