"""docs/rules.md §"Fair deals", step 3: a full table whose seated players have a page open waits
a few seconds for their values, so the deals the server seats by itself (quick pairing, a
challenge, a tournament's first game, the one-click bot game) get them too; the last awaited
value deals, or the deadline does with the values that came, and nobody can stall a table."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import seeding
from games.engine import Rules
from games.models import Match, Table
from pairing import challenges
from pairing import services as pairing
from pairing.setups import GRID
from people import services as people
from play import selectors, services
from play.services import tables
from tests.tournaments.support import open_with_bots
from tournaments import services as cups
from tournaments.models import Tournament

from .services_support import make_user

pytestmark = pytest.mark.django_db

ALICE_VALUE = "a" * 31 + "1"
BOB_VALUE = "b" * 31 + "2"
DUEL = GRID[0]  # casual podkidnoy for two


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """What live play sent to personal sockets and which tasks it enqueued (after the commit,
    which a test transaction never reaches, so they are caught where they are sent)."""
    caught: dict[str, list[Any]] = {"personal": [], "tasks": []}

    def group_send(group: str, event: dict[str, Any]) -> None:
        if event.get("type") == "personal.event":
            caught["personal"].append((group, event["payload"]))

    monkeypatch.setattr("play.broadcast.group_send_on_commit", group_send)
    monkeypatch.setattr(
        "play.services.tables.enqueue_on_commit",
        lambda task, *args, countdown=None: caught["tasks"].append((task, args, countdown)),
    )
    monkeypatch.setattr("pairing.push.to_user", lambda user_id, payload: None)
    return caught


def online(*users: User) -> None:
    """Each user has a page open (a personal socket)."""
    for user in users:
        people.presence_open(user.pk, f"test.{user.pk}")


def kinds(sent: dict[str, list[Any]], kind: str) -> list[tuple[str, dict[str, Any]]]:
    return [(group, payload) for group, payload in sent["personal"] if payload["kind"] == kind]


def dealing_table(alice: User, bob: User) -> tuple[Table, str]:
    """Alice's page is open but has sent nothing; Bob sits with his value: the table waits."""
    table = services.table_create(creator=alice, rules=Rules())
    table.refresh_from_db()
    shown = seeding.commitment(table.server_seed)
    services.table_join(table_id=table.pk, user=bob, seed_value=BOB_VALUE, seed_commitment=shown)
    table.refresh_from_db()
    return table, shown


def test_a_full_table_waits_for_the_value_of_a_player_whose_page_is_open(sent: dict[str, list[Any]]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    online(alice, bob)
    table, shown = dealing_table(alice, bob)
    assert table.status == Table.Status.DEALING and not table.matches.exists()
    assert table.deal_due_at is not None
    wait = timedelta(seconds=settings.GAMES_DEAL_WAIT_SECONDS)
    assert timedelta(0) < table.deal_due_at - timezone.now() <= wait
    # Only Alice is asked (Bob's value came with his seat), for the table's commitment.
    ((group, wanted),) = kinds(sent, "deal.wanted")
    assert group == f"user.{alice.pk}" and wanted["commitment"] == shown
    assert wanted["url"] == reverse("games:seed_contribute", args=[table.pk])
    assert sent["tasks"] == [(tables.DEAL_DUE_TASK, (table.pk,), settings.GAMES_DEAL_WAIT_SECONDS)]
    # Her value deals at once, with both values, and both are taken to the match.
    services.seed_contribute(table_id=table.pk, user=alice, value=ALICE_VALUE, commitment=shown)
    match = Match.objects.get(table=table)
    assert match.contributions == [{"seat": 0, "value": ALICE_VALUE}, {"seat": 1, "value": BOB_VALUE}]
    assert match.seed == seeding.deal_seed(match.server_seed, [ALICE_VALUE, BOB_VALUE])
    started = kinds(sent, "match.started")
    assert sorted(group for group, _ in started) == sorted([f"user.{alice.pk}", f"user.{bob.pk}"])
    assert {p["url"] for _, p in started} == {reverse("games:match", args=[match.pk])}
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.deal_due_at is None


def test_the_deadline_deals_with_the_values_that_came_and_only_once(sent: dict[str, list[Any]]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    online(alice, bob)
    table, shown = dealing_table(alice, bob)
    assert services.table_deal_due(table_id=table.pk) is None  # not due yet: an earlier wait's task
    assert not table.matches.exists()
    Table.objects.filter(pk=table.pk).update(deal_due_at=timezone.now() - timedelta(seconds=1))
    match = services.table_deal_due(table_id=table.pk)
    assert match is not None
    assert match.contributions == [
        {"seat": 0, "value": None, "missing": True},
        {"seat": 1, "value": BOB_VALUE},
    ]
    assert services.table_deal_due(table_id=table.pk) is None  # the task again: nothing
    assert Match.objects.filter(table=table).count() == 1
    with pytest.raises(services.TableError):  # her value came too late, and changes nothing
        services.seed_contribute(table_id=table.pk, user=alice, value=ALICE_VALUE, commitment=shown)
    assert Match.objects.get(table=table).seed == match.seed


def test_beats_sweep_deals_a_table_whose_task_was_lost(sent: dict[str, list[Any]]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    online(alice, bob)
    table, _shown = dealing_table(alice, bob)
    services.tables_sweep()
    assert not table.matches.exists()
    Table.objects.filter(pk=table.pk).update(deal_due_at=timezone.now() - timedelta(minutes=1))
    services.tables_sweep()
    assert table.matches.get().status == Match.Status.ACTIVE


def test_nobody_waits_for_a_page_that_is_closed_nor_for_a_bot(sent: dict[str, list[Any]]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    online(bob)
    table, _shown = dealing_table(alice, bob)  # Alice has no page open: nobody to ask
    assert table.status == Table.Status.PLAYING and kinds(sent, "deal.wanted") == []
    carol = make_user("carol")
    online(carol)
    with_bots = services.table_create(creator=carol, rules=Rules(players=3))
    with_bots.refresh_from_db()
    services.seed_contribute(
        table_id=with_bots.pk,
        user=carol,
        value=ALICE_VALUE,
        commitment=seeding.commitment(with_bots.server_seed),
    )
    services.seats_fill_with_bots(table_id=with_bots.pk, user=carol, level="easy")
    assert with_bots.matches.get().contributions[0] == {"seat": 0, "value": ALICE_VALUE}


def test_a_player_who_leaves_while_the_table_waits_opens_it_again(sent: dict[str, list[Any]]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    online(alice, bob)
    table, _shown = dealing_table(alice, bob)
    services.seat_leave(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and table.deal_due_at is None
    Table.objects.filter(pk=table.pk).update(deal_due_at=timezone.now() - timedelta(seconds=1))
    assert services.table_deal_due(table_id=table.pk) is None and not table.matches.exists()


def test_quick_pairing_deals_with_both_players_values(sent: dict[str, list[Any]]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    online(alice, bob)
    pairing.seek_open(user=alice, setup=DUEL)
    seek = pairing.seek_open(user=bob, setup=DUEL)
    assert seek.table is not None
    table = Table.objects.get(pk=seek.table.pk)
    assert table.status == Table.Status.DEALING
    wanted = {group: payload for group, payload in kinds(sent, "deal.wanted")}
    assert set(wanted) == {f"user.{alice.pk}", f"user.{bob.pk}"}
    for user, value in ((alice, ALICE_VALUE), (bob, BOB_VALUE)):
        commitment = wanted[f"user.{user.pk}"]["commitment"]
        services.seed_contribute(table_id=table.pk, user=user, value=value, commitment=commitment)
    match = table.matches.get()
    assert [c["value"] for c in match.contributions] == [ALICE_VALUE, BOB_VALUE]
    assert len(kinds(sent, "match.started")) == 2


def test_an_accepted_challenge_waits_for_the_challenger_and_the_pages_follow(
    client: Client, sent: dict[str, list[Any]]
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    online(alice, bob)
    challenge = challenges.challenge_send(challenger=alice, challenged=bob, setup=DUEL)
    client.force_login(bob)
    response = client.post(reverse("pairing:challenge_answer", args=[challenge.pk, "accept"]))
    table = Table.objects.get()
    assert table.status == Table.Status.DEALING
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[table.pk])
    assert selectors.table_landing(table_id=table.pk) == reverse("games:table", args=[table.pk])
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "table-dealing" in page and "data-seed-url" in page  # Bob's table page sends his value
    for user, value in ((alice, ALICE_VALUE), (bob, BOB_VALUE)):
        client.force_login(user)
        reply = client.post(
            reverse("games:seed_contribute", args=[table.pk]),
            {"seed_value": value, "seed_commitment": seeding.commitment(table.server_seed)},
        )
        assert reply.json() == {"ok": True}
    match = table.matches.get()
    assert selectors.table_landing(table_id=table.pk) == reverse("games:match", args=[match.pk])
    assert client.get(reverse("pairing:challenge", args=[challenge.pk]))["Location"] == reverse(
        "games:match", args=[match.pk]
    )


def test_the_one_click_bot_game_lands_on_the_table_until_the_value_came(
    client: Client, sent: dict[str, list[Any]]
) -> None:
    alice = make_user("alice")
    online(alice)
    client.force_login(alice)
    response = client.post(reverse("games:bot_game"), {"variant": "podkidnoy", "players": 2, "level": "easy"})
    table = Table.objects.get()
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert table.status == Table.Status.DEALING
    client.post(
        reverse("games:seed_contribute", args=[table.pk]),
        {"seed_value": ALICE_VALUE, "seed_commitment": seeding.commitment(table.server_seed)},
    )
    assert table.matches.get().contributions[0] == {"seat": 0, "value": ALICE_VALUE}


@pytest.mark.parametrize(("page", "words"), [("rules.md", "{n} seconds"), ("rules.ru.md", "{n} секунд")])
def test_the_rules_page_states_the_wait_the_tables_keep(page: str, words: str) -> None:
    text = (settings.BASE_DIR / "docs" / page).read_text(encoding="utf-8")
    assert words.format(n=settings.GAMES_DEAL_WAIT_SECONDS) in text


def tournament_table() -> tuple[Tournament, Table, User, User]:
    """A tournament of Alice and Bob (their pages open) just started, and its one table, dealing."""
    organiser, alice, bob = make_user("organiser"), make_user("alice"), make_user("bob")
    online(alice, bob)
    cup = open_with_bots(organiser, 0)
    for user in (alice, bob):
        cups.entry_register(tournament_id=cup.pk, user=user)
    cups.tournament_start(tournament_id=cup.pk, user=organiser)
    return cup, Table.objects.get(organised=True), alice, bob


def contribute_both(sent: dict[str, list[Any]], table: Table, alice: User, bob: User) -> None:
    """Each of the two pages answers the deal's request for its value."""
    for group, wanted in kinds(sent, "deal.wanted"):
        user = alice if group == f"user.{alice.pk}" else bob
        services.seed_contribute(
            table_id=table.pk, user=user, value=ALICE_VALUE, commitment=wanted["commitment"]
        )


def test_a_tournaments_first_game_waits_for_its_players_and_its_tick_leaves_it_alone(
    sent: dict[str, list[Any]],
) -> None:
    _cup, table, alice, bob = tournament_table()
    assert table.status == Table.Status.DEALING
    cups.tournaments_tick()  # a pairing without a game in play, but its deal is coming
    assert not table.matches.exists()
    contribute_both(sent, table, alice, bob)
    assert [c["value"] for c in table.matches.get().contributions] == [ALICE_VALUE, ALICE_VALUE]


def test_a_tournament_game_dealt_after_the_wait_is_announced_to_the_tournament_page(
    sent: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No request waits for that deal, so without this the page (an arena player's, which goes to
    the game it shows) stays as it was until something else changes in the tournament."""
    cup, table, alice, bob = tournament_table()
    queued: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(
        "tournaments.receivers.enqueue_on_commit", lambda task, *args, **_kw: queued.append((task.name, args))
    )
    contribute_both(sent, table, alice, bob)
    match = table.matches.get()
    assert queued == [("tournaments.match_dealt", (match.pk,))]

    told: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(
        "tournaments.services.locking.group_send_on_commit", lambda group, event: told.append((group, event))
    )
    version = Tournament.objects.get(pk=cup.pk).version
    assert cups.match_dealt(match_id=match.pk) is True
    assert told == [
        (
            cups.tournament_group(cup.pk),
            {"type": "tournament.changed", "tournament": cup.pk, "version": version + 1},
        )
    ]
