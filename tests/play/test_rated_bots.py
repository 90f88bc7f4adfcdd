"""The club's bots play no rated game (``docs/rules.md`` §7, "Bots"; issue 37 §5): the pages do
not offer them at a rated table, and every service that would seat one there refuses, so a form
sent by hand changes nothing. A tournament game with a bot is played casual."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from botapi import services as botapi
from games.engine import Rules
from games.models import Match, Table
from pairing import services as pairing
from pairing.models import Seek
from pairing.setups import GRID
from play import selectors, services
from tests.play.services_support import make_user, play_out
from tests.tournaments.support import open_with_bots
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

FOUR = Rules.for_variant("podkidnoy", players=4, teams=True)


def test_a_rated_table_refuses_every_bot_level_and_seats_nobody() -> None:
    anna = make_user("anna")
    table = services.table_create(creator=anna, rules=FOUR, rated=True)
    for level in ("random", "easy", "medium", "strong"):
        with pytest.raises(services.TableError, match="people only"):
            services.seats_fill_with_bots(table_id=table.pk, user=anna, level=level)
    assert [s.user_id for s in table.seats.all()] == [anna.pk]
    assert not Match.objects.exists()


def test_a_casual_table_still_takes_bots() -> None:
    anna = make_user("anna")
    table = services.table_create(creator=anna, rules=FOUR)
    services.seats_fill_with_bots(table_id=table.pk, user=anna, level="random")
    assert table.seats.count() == 4


def test_the_rated_table_page_offers_no_bots_and_the_casual_one_does(client: Client) -> None:
    anna = make_user("anna")
    rated = services.table_create(creator=anna, rules=FOUR, rated=True)
    casual = services.table_create(creator=anna, rules=FOUR)
    client.force_login(anna)
    fill = 'class="bot-fill"'
    assert fill not in client.get(reverse("games:table", args=[rated.pk])).content.decode()
    assert fill in client.get(reverse("games:table", args=[casual.pk])).content.decode()
    response = client.post(reverse("games:seats_fill", args=[rated.pk]), {"level": "random"})
    assert response.status_code < 500
    assert rated.seats.count() == 1


def test_play_again_with_bots_is_refused_at_a_rated_table() -> None:
    anna, boris = make_user("anna"), make_user("boris")
    table = services.table_create(creator=anna, rules=Rules(), rated=True)
    services.table_join(table_id=table.pk, user=boris)
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None
    play_out(match)
    services.play_again(match_id=match.pk, user=anna)
    with pytest.raises(services.TableError, match="people only"):
        services.play_again_with_bots(match_id=match.pk, user=anna, level="easy")
    assert table.matches.count() == 1
    assert not table.seats.filter(user__is_bot=True).exists()


def test_a_rated_seek_offers_no_bots_and_refuses_them(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pairing.push.to_user", lambda user_id, payload: None)
    anna = make_user("anna")
    rated = next(s for s in GRID if s.rated)
    seek = pairing.seek_open(user=anna, setup=rated)
    Seek.objects.update(created=timezone.now() - timedelta(seconds=pairing.BOTS_AFTER_SECONDS + 1))
    with pytest.raises(pairing.SeekError, match="people only"):
        pairing.seek_fill_with_bots(user=anna, seek_id=seek.pk, level="easy")
    assert not Table.objects.exists()
    client.force_login(anna)
    assert "pairing-wait__bots" not in client.get(reverse("pairing:grid")).content.decode()
    boris = make_user("boris")
    pairing.seek_open(user=boris, setup=next(s for s in GRID if not s.rated and s.players == 4))
    client.force_login(boris)
    assert "pairing-wait__bots" in client.get(reverse("pairing:grid")).content.decode()  # casual: offered


def test_the_bot_api_refuses_a_rated_game_against_the_club_s_bots() -> None:
    robo = make_user("robo")
    botapi.account_upgrade(robo)
    robo.refresh_from_db()
    with pytest.raises(botapi.ApiRefused, match="people only"):
        botapi.challenge_ai(robo, variant="podkidnoy", players=2, level="easy", rated=True, turn_seconds=30)
    assert not Table.objects.exists()


def test_a_rated_tournament_game_with_a_bot_is_casual(organiser: User) -> None:
    tournament = open_with_bots(organiser, 1, rated=True, rules=Rules(players=2).to_dict())
    tournaments.entry_register(tournament_id=tournament.pk, user=make_user("anna"))
    tournaments.tournament_start(tournament_id=tournament.pk, user=organiser)
    pairing_row = tournament.pairings.get()
    assert pairing_row.table is not None and not pairing_row.table.rated


@pytest.fixture
def organiser(db: None) -> User:
    return make_user("organiser")
