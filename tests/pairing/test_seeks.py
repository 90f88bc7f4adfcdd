"""Quick pairing through its services and views: "Play now" opens a seek or completes a table,
which is dealt at once with everyone told where to go; blocked players never meet; a seek goes
when its owner's last page closed (after the grace period), can be cancelled, and after a while
may be filled with bots; the grid counts who waits and who plays; bad input is a message."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone, translation

from games.engine import Rules
from games.models import Match, Table
from pairing import services, tasks
from pairing.forms import SeekForm
from pairing.models import Seek
from pairing.selectors import grid_counts
from pairing.setups import GRID, Setup
from people import services as people
from people.models import Sanction
from play import selectors as game_selectors
from play import services as games
from tests.play.services_support import make_user

pytestmark = pytest.mark.django_db

DUEL = GRID[0]
RATED_DUEL = GRID[1]
FOUR = next(s for s in GRID if s.players == 4 and not s.teams)


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict[str, Any]]]:
    """What pairing sent to personal sockets (instead of a channel layer)."""
    sent: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr("pairing.push.to_user", lambda user_id, payload: sent.append((user_id, payload)))
    return sent


def test_the_second_play_now_deals_the_match_and_both_are_taken_there(pushed: list[Any]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    first = services.seek_open(user=alice, setup=DUEL)
    assert first.status == Seek.Status.WAITING and pushed == []
    second = services.seek_open(user=bob, setup=DUEL)
    first.refresh_from_db()
    assert first.status == second.status == Seek.Status.MATCHED and first.table_id == second.table_id
    match = Match.objects.get(table=first.table)
    assert {p.user_id for p in match.players.all()} == {alice.pk, bob.pk}
    assert match.table.turn_seconds == DUEL.turn_seconds and not match.table.rated
    assert sorted(user for user, _ in pushed) == sorted([alice.pk, bob.pk])
    assert {p["url"] for _, p in pushed} == {f"/play/match/{match.pk}/"}


def test_a_table_of_four_waits_for_its_fourth(pushed: list[Any]) -> None:
    users = [make_user(f"p{n}") for n in range(4)]
    for user in users[:3]:
        services.seek_open(user=user, setup=FOUR)
    assert Seek.objects.filter(status=Seek.Status.WAITING).count() == 3 and not Match.objects.exists()
    services.seek_open(user=users[3], setup=FOUR)
    match = Match.objects.get()
    assert [p.user_id for p in match.players.order_by("seat")] == [u.pk for u in users]


def test_different_setups_do_not_meet_and_a_new_play_now_replaces_the_old_seek(pushed: list[Any]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    services.seek_open(user=alice, setup=DUEL)
    services.seek_open(user=bob, setup=GRID[3])
    assert not Match.objects.exists()
    services.seek_open(user=alice, setup=GRID[3])
    assert Seek.objects.filter(user=alice, status=Seek.Status.CANCELLED).count() == 1
    assert Match.objects.count() == 1


def test_blocked_players_are_never_paired_but_each_meets_someone_else(pushed: list[Any]) -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    people.block(alice, bob)
    services.seek_open(user=alice, setup=DUEL)
    services.seek_open(user=bob, setup=DUEL)
    assert not Match.objects.exists()
    services.seek_open(user=carol, setup=DUEL)
    match = Match.objects.get()
    assert bob.pk not in {p.user_id for p in match.players.all()} or alice.pk not in {
        p.user_id for p in match.players.all()
    }
    assert carol.pk in {p.user_id for p in match.players.all()}


def test_rated_seeks_far_apart_meet_once_their_ranges_widened(pushed: list[Any]) -> None:
    from ratings.models import Rating

    alice, bob = make_user("alice"), make_user("bob")
    people.presence_open(alice.pk, "chan.alice")
    people.presence_open(bob.pk, "chan.bob")
    Rating.objects.create(user=bob, pool=RATED_DUEL.pool, rating=1900, best=1900)
    services.seek_open(user=alice, setup=RATED_DUEL, rating_range=100)
    services.seek_open(user=bob, setup=RATED_DUEL, rating_range=100)
    assert services.pool_pair() == 0
    Seek.objects.update(created=timezone.now() - timedelta(seconds=90))  # 100 + 9 x 50 = 550 > 400
    assert services.pool_pair() == 1
    table = Table.objects.get()  # both pages are open: the deal waits for their values
    assert table.rated and table.status == Table.Status.DEALING


def test_a_seek_goes_when_its_owner_left_and_stays_when_they_came_back(pushed: list[Any]) -> None:
    alice = make_user("alice")
    services.seek_open(user=alice, setup=DUEL)
    people.presence_open(alice.pk, "chan.1")
    assert tasks.offline(alice.pk) == 0  # a reload: a page is open again
    people.presence_close(alice.pk, "chan.1")
    assert tasks.offline(alice.pk) == 1
    assert not Seek.objects.filter(status=Seek.Status.WAITING).exists()


def test_the_last_socket_closing_arms_the_seeks_end(monkeypatch: pytest.MonkeyPatch) -> None:
    armed: list[tuple[Any, ...]] = []
    monkeypatch.setattr("pairing.receivers.enqueue_on_commit", lambda *a, **k: armed.append((*a, k)))
    alice = make_user("alice")
    people.presence_open(alice.pk, "chan.1")
    people.presence_close(alice.pk, "chan.1")
    assert armed == [(tasks.offline, alice.pk, {"countdown": tasks.OFFLINE_GRACE_SECONDS})]


def test_fill_with_bots_only_after_waiting_and_then_the_match_starts(pushed: list[Any]) -> None:
    alice = make_user("alice")
    seek = services.seek_open(user=alice, setup=FOUR)
    with pytest.raises(services.SeekError):
        services.seek_fill_with_bots(user=alice, seek_id=seek.pk, level="easy")
    Seek.objects.update(created=timezone.now() - timedelta(seconds=services.BOTS_AFTER_SECONDS + 1))
    with pytest.raises(services.SeekError):
        services.seek_fill_with_bots(user=make_user("mallory"), seek_id=seek.pk, level="easy")
    match = services.seek_fill_with_bots(user=alice, seek_id=seek.pk, level="easy").matches.get()
    assert sum(p.user.is_bot for p in match.players.all()) == 3
    seek.refresh_from_db()
    assert seek.status == Seek.Status.MATCHED


def test_the_grid_counts_players_waiting_and_playing(pushed: list[Any]) -> None:
    users = [make_user(f"p{n}") for n in range(3)]
    services.seek_open(user=users[0], setup=DUEL)
    services.seek_open(user=users[1], setup=DUEL)
    services.seek_open(user=users[2], setup=DUEL)
    counts = grid_counts()
    assert counts.waiting[DUEL.key] == 1 and counts.playing[DUEL.key] == 2


def test_bots_and_impossible_setups_are_refused() -> None:
    from accounts.models import User
    from accounts.services import bot_accounts

    (bot,) = bot_accounts(level=User.BotLevel.EASY, count=1, exclude=set())
    with pytest.raises(services.SeekError):
        services.seek_open(user=bot, setup=DUEL)
    with pytest.raises(services.SeekError):
        services.seek_open(user=make_user("alice"), setup=Setup("podkidnoy", 6, False, 24, 30, False))
    with pytest.raises(services.SeekError):
        services.seek_open(user=make_user("bob"), setup=Setup("podkidnoy", 2, False, 52, 30, True))
    assert not Seek.objects.exists()


def test_play_now_from_the_grid_page_and_the_custom_form(client: Client, pushed: list[Any]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    client.force_login(alice)
    page = client.get("/")
    assert page.status_code == 200 and b'id="pairing-grid"' in page.content
    fields = {
        "variant": "podkidnoy",
        "players": "2",
        "deck": "36",
        "turn_seconds": "30",
        "rating_range": "any",
    }
    response = client.post("/pair/seek/", fields | {"next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    lobby = client.get("/play/").content
    assert b"Looking for players" in lobby and b'ws-connect="/ws/pairing/"' in lobby
    other = Client()
    other.force_login(bob)
    response = other.post("/pair/new/", fields, HTTP_HX_REQUEST="true")
    match = Match.objects.get()
    assert response.status_code == 200 and response["HX-Redirect"] == f"/play/match/{match.pk}/"


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"variant": "chess", "players": "2", "deck": "36", "turn_seconds": "30", "rating_range": "any"},
        {"variant": "podkidnoy", "players": "9", "deck": "36", "turn_seconds": "30", "rating_range": "any"},
        {"variant": "podkidnoy", "players": "6", "deck": "24", "turn_seconds": "30", "rating_range": "any"},
        {"variant": "podkidnoy", "players": "3", "teams": "on", "deck": "36", "turn_seconds": "30"},
        {
            "variant": "podkidnoy",
            "players": "2",
            "deck": "52",
            "turn_seconds": "30",
            "rated": "on",
            "rating_range": "100",
        },
        {"variant": "podkidnoy", "players": "2", "deck": "36", "turn_seconds": "7", "rating_range": "any"},
        {"variant": "podkidnoy", "players": "2", "deck": "36", "turn_seconds": "30", "rating_range": "-5"},
    ],
)
def test_bad_seeks_are_a_message_and_change_nothing(client: Client, fields: dict[str, str]) -> None:
    client.force_login(make_user("alice"))
    response = client.post("/pair/seek/", fields, follow=True)
    assert response.status_code == 200
    assert list(response.context["messages"]) and not Seek.objects.exists()


def test_a_player_barred_from_rated_play_cannot_open_a_rated_seek_but_may_open_a_casual_one(
    pushed: list[Any],
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    Sanction.objects.create(user=alice, kind=Sanction.Kind.RATED_BAR)
    with pytest.raises(services.SeekError, match=r"barred from rated play.*casual table"):
        services.seek_open(user=alice, setup=RATED_DUEL)
    services.seek_open(user=bob, setup=RATED_DUEL)
    assert list(Seek.objects.values_list("user__username", flat=True)) == ["bob"]  # never met bob
    assert not Table.objects.exists()
    assert not services.seek_open(user=alice, setup=DUEL).rated


@override_settings(GAMES_RATED_QUITS=1, GAMES_RATED_BAN_MINUTES=30)
def test_a_player_barred_by_the_deal_fishing_ledger_cannot_open_a_rated_seek(pushed: list[Any]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    table = games.table_create(creator=alice, rules=Rules(), rated=True)
    games.table_join(table_id=table.pk, user=bob)
    match = game_selectors.table_current_match(table_id=table.pk)
    assert match is not None
    games.match_abort(match_id=match.pk, user=alice)  # left right after the deal: barred
    with pytest.raises(services.SeekError, match=r"30 more minutes.*casual table"):
        services.seek_open(user=alice, setup=RATED_DUEL)
    assert not Seek.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "You are barred from rated play for now. You may play at a casual table."),
        ("ru", "Вам пока запрещена рейтинговая игра. Вы можете сыграть за столом без рейтинга."),
    ],
)
def test_play_now_says_why_a_barred_players_rated_seek_is_refused(language: str, words: str) -> None:
    alice = make_user("alice")
    Sanction.objects.create(user=alice, kind=Sanction.Kind.RATED_BAR)
    client = Client(headers={"accept-language": language})
    client.force_login(alice)
    fields = {"variant": "podkidnoy", "players": "2", "deck": "36", "turn_seconds": "30", "rated": "on"}
    response = client.post("/pair/seek/", fields | {"rating_range": "100"}, follow=True)
    assert response.status_code == 200 and words in response.content.decode()
    assert not Seek.objects.exists()


def test_a_refused_play_now_from_the_grid_reloads_the_page_to_show_why() -> None:
    alice = make_user("alice")
    Sanction.objects.create(user=alice, kind=Sanction.Kind.RATED_BAR)
    client = Client()
    client.force_login(alice)
    fields = {"variant": "podkidnoy", "players": "2", "deck": "36", "turn_seconds": "30", "rated": "on"}
    response = client.post(
        "/pair/seek/", fields | {"rating_range": "200", "next": "/play/"}, HTTP_HX_REQUEST="true"
    )
    assert response["HX-Redirect"] == "/play/"  # the grid fragment alone would not show the message
    assert "barred from rated play" in client.get("/play/").content.decode()
    assert not Seek.objects.exists()


def test_the_tick_drops_seeks_whose_owner_vanished_without_a_goodbye(pushed: list[Any]) -> None:
    """A daphne killed with her socket never sent ``user_offline``: her presence went stale."""
    alice, bob = make_user("alice"), make_user("bob")
    people.presence_open(bob.pk, "chan.bob")
    services.seek_open(user=alice, setup=RATED_DUEL)
    services.seek_open(user=bob, setup=GRID[3])
    services.pool_pair()
    assert Seek.objects.filter(status=Seek.Status.WAITING).count() == 2  # young seeks stay
    Seek.objects.update(created=timezone.now() - timedelta(seconds=services.ABANDONED_AFTER_SECONDS + 1))
    services.pool_pair()
    assert list(Seek.objects.filter(status=Seek.Status.WAITING).values_list("user_id", flat=True)) == [bob.pk]


def test_the_custom_seeks_turn_timer_reads_in_the_pages_language() -> None:
    """The "15 s a move" options were drawn in English on the Russian page: made at import."""
    for language, words in (("ru", "15 с на ход"), ("en", "15 s a move")):
        with translation.override(language):
            html = str(SeekForm()["turn_seconds"])
        assert words in html, (language, html)
