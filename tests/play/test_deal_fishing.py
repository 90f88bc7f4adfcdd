"""Deal fishing (``docs/rules.md`` §7): at a rated table an abort after the deal counts as a
resignation, every rated game left too early is in a ledger, and too many of them bar rated play
for a while."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import early
from games.engine import Rules
from games.models import Match, RatedQuit
from play import selectors, services
from play.services import playban

from .services_support import make_user, play_default

pytestmark = pytest.mark.django_db


def rated_match(a: User, b: User) -> Match:
    table = services.table_create(creator=a, rules=Rules(), rated=True)
    services.table_join(table_id=table.pk, user=b)
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None and match.is_active
    return match


def fish(a: User, b: User, times: int) -> None:
    """``a`` looks at ``times`` rated deals and aborts each."""
    for _ in range(times):
        services.match_abort(match_id=rated_match(a, b).pk, user=a)


def test_a_rated_abort_after_the_deal_counts_as_a_resignation() -> None:
    a, b = make_user("a"), make_user("b")
    match = rated_match(a, b)
    services.match_abort(match_id=match.pk, user=a)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED  # not aborted: decided
    assert match.result is not None and match.result["fool"] == 0
    aborter = match.players.get(user=a)
    assert aborter.resigned and aborter.fool
    assert RatedQuit.objects.get(user=a).aborted


def test_a_casual_abort_is_still_an_abort_and_not_in_the_ledger() -> None:
    a, b = make_user("a"), make_user("b")
    table = services.table_create(creator=a, rules=Rules())
    services.table_join(table_id=table.pk, user=b)
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None
    services.match_abort(match_id=match.pk, user=a)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and not RatedQuit.objects.exists()


def play_until_each_moved(match: Match, moves: int) -> None:
    """Play the engine's defaults until every seat made ``moves`` moves of its own."""
    for _ in range(40):
        if not early.too_early(early.own_moves([match.pk]).get(match.pk, {}), range(2), moves):
            return
        play_default(match)
    raise AssertionError("the players never made their moves")


@override_settings(GAMES_RATED_MIN_MOVES=3)
def test_a_resignation_before_each_player_made_three_moves_is_in_the_ledger_and_after_it_is_not() -> None:
    a, b, c, d, e, f = (make_user(n) for n in "abcdef")
    first = rated_match(a, b)
    services.match_resign(match_id=first.pk, user=a)
    after_one = rated_match(c, d)
    play_default(after_one)  # one move: still too early (it escaped the ledger before)
    services.match_resign(match_id=after_one.pk, user=c)
    later = rated_match(e, f)
    play_until_each_moved(later, 3)
    services.match_resign(match_id=later.pk, user=e)
    assert sorted(RatedQuit.objects.values_list("user__username", "aborted")) == [("a", False), ("c", False)]


@override_settings(GAMES_RATED_QUITS=3, GAMES_RATED_BAN_MINUTES=30)
def test_three_quick_quits_bar_rated_play_but_not_casual_play() -> None:
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    fish(a, b, 2)
    assert playban.rated_bar_until(user=a) is None
    fish(a, b, 1)
    until = playban.rated_bar_until(user=a)
    assert until is not None and timedelta(minutes=29) < until - timezone.now() <= timedelta(minutes=30)
    with pytest.raises(playban.RatedPlayBarred, match="30 more minutes"):
        services.table_create(creator=a, rules=Rules(), rated=True)
    other = services.table_create(creator=c, rules=Rules(), rated=True)
    with pytest.raises(playban.RatedPlayBarred):
        services.table_join(table_id=other.pk, user=a)
    assert other.seats.count() == 1
    casual = services.table_create(creator=a, rules=Rules())  # casual play stays open
    assert casual.pk
    assert playban.rated_bar_until(user=b) is None  # the opponent did nothing wrong


@override_settings(GAMES_RATED_QUITS=3, GAMES_RATED_BAN_MINUTES=30)
def test_the_bar_doubles_past_the_limit_and_ends_by_itself() -> None:
    a, b = make_user("a"), make_user("b")
    fish(a, b, 3)
    RatedQuit.objects.update(at=timezone.now() - timedelta(minutes=31))
    assert playban.rated_bar_until(user=a) is None  # served
    fish(a, b, 1)  # allowed again... and a fourth quit within the day: an hour
    until = playban.rated_bar_until(user=a)
    assert until is not None and until - timezone.now() > timedelta(minutes=59)
    RatedQuit.objects.update(at=timezone.now() - timedelta(hours=25))
    assert playban.rated_bar_until(user=a) is None  # out of the window


@override_settings(GAMES_RATED_QUITS=1)
def test_a_barred_player_may_not_agree_to_play_again_at_a_rated_table() -> None:
    a, b = make_user("a"), make_user("b")
    match = rated_match(a, b)
    services.match_abort(match_id=match.pk, user=a)
    with pytest.raises(playban.RatedPlayBarred):
        services.play_again(match_id=match.pk, user=a)
    assert not match.players.get(user=a).wants_again


def test_the_rated_match_page_offers_resigning_not_aborting(client: Client) -> None:
    a, b = make_user("a"), make_user("b")
    match = rated_match(a, b)
    client.force_login(a)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert reverse("games:match_abort", args=[match.pk]) not in page
    assert reverse("games:match_resign", args=[match.pk]) in page
    response = client.post(reverse("games:match_abort", args=[match.pk]))  # the API still answers
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


@override_settings(GAMES_RATED_QUITS=1)
def test_a_barred_player_gets_a_message_not_an_error_page(client: Client) -> None:
    a, b = make_user("a"), make_user("b")
    services.match_abort(match_id=rated_match(a, b).pk, user=a)
    client.force_login(a)
    data = {
        "variant": "podkidnoy",
        "players": 2,
        "deck": 36,
        "throw_in": "all",
        "first_bout_limit_5": "on",
        "draws": "on",
        "jokers": 0,
        "joker_beats": "any",
        "joker_last": "defence_only",
        "rated": "on",
        "turn_seconds": 30,
    }
    response = client.post(reverse("games:table_create"), data)
    assert response.status_code == 200
    assert "rated play is closed to you" in response.content.decode()
