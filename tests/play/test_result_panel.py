"""The end of a game without a reload (issue #17, items 7, 8 and 9): the pushed fragments carry a
result panel with the places, the replay link and play again; a rated game's rating changes are
in the push that ends it (they are written with the result); team games name
winners, losers and the fool left holding cards; every seat shows its rating in the table's pool."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import Rules
from games.models import Match
from play import selectors, services
from play.fragments import match_fragments
from play.loaded import LoadedMatch
from play.presenters import present_match
from ratings.services import match_rate
from tests.ratings.builders import finished_match, make_users

from .services_support import make_user, play_out, start_match

pytestmark = pytest.mark.django_db


def loaded(match: Match) -> LoadedMatch:
    found = selectors.match_load(match_id=match.pk)
    assert found is not None
    return found


def test_the_push_that_ends_a_game_carries_the_result_panel_with_replay_and_play_again() -> None:
    olga = make_user("olga")
    match = start_match(humans=[olga], bot_level="random")
    html, _version, _seq = match_fragments(loaded(match), olga)
    assert 'id="match-result"' in html and "hidden" in html.split('id="match-result"')[1].split(">")[0]
    play_out(match)
    html, _version, _seq = match_fragments(loaded(match), olga)
    panel = html.split('id="match-result"')[1]
    assert 'hx-swap-oob="true"' in html.split('id="match-result"')[0][-200:] + panel[:200]
    assert reverse("match_record", args=[match.pk]) in panel
    assert reverse("games:match_again", args=[match.pk]) in panel
    assert panel.count("match-result__player") >= 2
    assert 'data-ratings="none"' in panel  # a casual game


def test_a_rated_game_shows_its_rating_changes_once_they_are_stored() -> None:
    olga, ivan = make_users(2)
    match = finished_match([olga, ivan], Rules(players=2), seed="panel", rng=random.Random(1))
    before = present_match(loaded(match), olga)
    assert before.result is not None and before.result.ratings_pending
    html = match_fragments(loaded(match), olga)[0]
    assert 'data-ratings="pending"' in html
    assert match_rate(match.pk)
    after = present_match(loaded(match), olga)
    assert after.result is not None and not after.result.ratings_pending
    changes = {p.name: p.change for group in after.result.places for p in group}
    assert all(change is not None for change in changes.values())
    deltas = sorted(round(c.delta) for c in changes.values() if c is not None)
    assert deltas[0] < 0 < deltas[1]
    html = match_fragments(loaded(match), olga)[0]
    assert 'data-ratings="done"' in html and "match-result__delta" in html


def test_the_push_that_ends_a_rated_game_carries_its_rating_changes() -> None:
    olga, ivan = make_user("olga"), make_user("ivan")
    table = services.table_create(creator=olga, rules=Rules.for_variant("podkidnoy"), rated=True)
    services.table_join(table_id=table.pk, user=ivan)
    current = selectors.table_current_match(table_id=table.pk)
    assert current is not None
    match = play_out(current)
    html = match_fragments(loaded(match), olga)[0]
    assert 'data-ratings="done"' in html and "match-result__delta" in html


def _team_game_with_a_lone_fool() -> tuple[Match, list[Any]]:
    rng = random.Random(7)
    users = make_users(4)
    for n in range(200):
        match = finished_match(users, Rules(players=4, teams=True), seed=f"team-{n}", rng=rng)
        result = match.result or {}
        if result.get("fool") is not None and not result.get("forfeits"):
            return match, users
    raise AssertionError("no team game left one player holding cards")


def test_a_team_game_names_winners_losers_and_the_fool_and_the_partner_is_not_the_fool() -> None:
    match, users = _team_game_with_a_lone_fool()
    result = match.result or {}
    fool = int(result["fool"])
    partner = (fool + 2) % 4
    assert sorted(result["losing_team"]) == sorted([fool, partner])
    context = present_match(loaded(match), users[0])
    seats = {s.position: s for s in context.seats} | ({context.me.position: context.me} if context.me else {})
    assert seats[fool].fool and seats[fool].lost
    assert not seats[partner].fool and seats[partner].lost and seats[partner].place is None
    assert all(not seats[s].lost for s in range(4) if s not in (fool, partner))
    panel = context.result
    assert panel is not None
    names = {s: users[s].display_name for s in range(4)}
    assert panel.fool == names[fool]
    assert names[fool] in panel.losers and names[partner] in panel.losers
    winners = [names[s] for s in range(4) if s not in (fool, partner)]
    assert all(name in panel.winners for name in winners)
    html = Client().get(reverse("games:match", args=[match.pk])).content.decode()
    assert "Winners:" in html and "Losers:" in html
    assert html.count("seat-badge--team-1") >= 2 and html.count("seat-badge--team-2") >= 2


def test_a_player_sees_their_own_team_and_the_title_says_how_their_team_did() -> None:
    match, users = _team_game_with_a_lone_fool()
    fool = int((match.result or {})["fool"])
    partner, winner = (fool + 2) % 4, (fool + 1) % 4
    client = Client()
    client.force_login(users[partner])
    html = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert f'data-my-team="{partner % 2 + 1}"' in html and "Your team lost." in html
    client.force_login(users[winner])
    assert "Your team won." in client.get(reverse("games:match", args=[match.pk])).content.decode()
    client.force_login(users[fool])
    assert "You are the fool." in client.get(reverse("games:match", args=[match.pk])).content.decode()


def test_every_seat_shows_its_rating_in_the_tables_pool_provisional_marked() -> None:
    olga, ivan = make_users(2)
    for n in range(3):
        match_rate(finished_match([olga, ivan], Rules(players=2), seed=f"r-{n}", rng=random.Random(n)).pk)
    rating = olga.ratings.get(pool="podkidnoy:2")
    table = services.table_create(creator=olga, rules=Rules(players=2))
    # The lobby and the table page, before the game.
    lobby = Client().get(reverse("games:lobby")).content.decode()
    assert f'data-rating="{round(rating.rating)}"' in lobby and f"{round(rating.rating)}?" in lobby
    table_page = Client().get(reverse("games:table", args=[table.pk])).content.decode()
    assert f'data-rating="{round(rating.rating)}"' in table_page
    services.table_join(table_id=table.pk, user=ivan)
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None
    player = match.players.get(user=olga)
    assert player.rating == pytest.approx(rating.rating) and player.rating_provisional
    client = Client()
    client.force_login(ivan)
    html = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert f'data-rating="{round(rating.rating)}"' in html


def test_a_newcomer_shows_the_rating_they_would_start_with() -> None:
    olga = make_user("olga")
    match = start_match(humans=[olga], bot_level="easy")
    players = {p.user.is_bot: p for p in match.players.select_related("user")}
    assert players[False].rating == 1500 and players[False].rating_provisional
    assert players[True].rating is not None
