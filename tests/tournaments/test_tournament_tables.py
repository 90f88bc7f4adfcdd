"""A tournament's tables after its games (issue #17, item 10): nobody may "play again" at one (a
knocked-out player used to be dealt a stray game there and timed out into a fool), every table is
closed once the tournament finishes, and a game's page names the tournament and the round."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import Rules
from games.models import Match, Table
from play import selectors, services
from play.presenters import present_match
from tests.play.services_support import make_user
from tests.tournaments.support import play_running_games, started_with_player
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db


def test_play_again_is_refused_at_a_tournament_table_and_not_offered() -> None:
    organiser = make_user("organiser")
    tournament, olga = started_with_player(organiser, 3, "olga")
    match = Match.objects.get(players__user=olga, status=Match.Status.ACTIVE)
    assert match.table.managed
    finished = play_running_games(tournament)
    assert finished.status == Tournament.Status.FINISHED
    first = Match.objects.filter(players__user=olga).order_by("pk").first()
    assert first is not None
    loaded = selectors.match_load(match_id=first.pk)
    assert loaded is not None and not present_match(loaded, olga).can_play_again
    games_before = Match.objects.count()
    with pytest.raises(services.GameError):
        services.play_again(match_id=first.pk, user=olga)
    assert Match.objects.count() == games_before


def test_no_tournament_table_stays_playing_once_it_finished() -> None:
    organiser = make_user("organiser")
    tournament, _olga = started_with_player(organiser, 3, "olga")
    play_running_games(tournament)
    tables = Table.objects.filter(tournament_pairing__tournament=tournament)
    assert tables.exists()
    assert not tables.exclude(status=Table.Status.CLOSED).exists()


def test_a_tournament_games_page_names_the_tournament_its_round_and_links_back() -> None:
    organiser = make_user("organiser")
    tournament, olga = started_with_player(organiser, 3, "olga")
    match = Match.objects.get(players__user=olga, status=Match.Status.ACTIVE)
    pairing = Pairing.objects.get(table=match.table)
    client = Client()
    client.force_login(olga)
    html = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert tournament.name in html
    assert f'data-round="{pairing.round.number}"' in html
    assert reverse("tournaments:detail", args=[tournament.pk]) in html


@pytest.mark.parametrize("signed_in", [False, True])
def test_anyone_may_watch_a_tournament_game_and_nobody_else_takes_its_seats(signed_in: bool) -> None:
    """A tournament's table is private so that only the players it seats sit there, not to hide
    its games: the tournament's pages link them (the bracket's "watch", the arena's games in
    play), so a stranger, signed in or not, opens the game as a spectator, sees no hand, and
    cannot take a seat."""
    organiser = make_user("organiser")
    tournament, olga = started_with_player(organiser, 3, "olga")
    match = Match.objects.get(players__user=olga, status=Match.Status.ACTIVE)
    assert match.table.private and match.table.open_to_watch
    stranger = make_user("stranger")
    client = Client()
    if signed_in:
        client.force_login(stranger)
    response = client.get(reverse("games:match", args=[match.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert tournament.name in html and 'class="hand__card' not in html
    assert client.get(reverse("games:table", args=[match.table_id])).status_code == 200
    with pytest.raises(services.GameError):
        services.table_join(table_id=match.table_id, user=stranger)


def test_a_private_table_of_a_person_stays_for_its_players() -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(), private=True)
    services.table_join(table_id=table.pk, user=guest, invite_token=table.invite_token)
    match = Match.objects.get(table=table)
    assert not table.open_to_watch
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(reverse("games:match", args=[match.pk])).status_code == 404
    assert stranger.get(reverse("games:table", args=[table.pk])).status_code == 404
    assert Client().get(reverse("games:match", args=[match.pk])).status_code == 404
