"""The fair deal of docs/rules.md §"Fair deals": the server commits to its seed, every seated
player's browser sends a value, the deal seed is derived from both in seat order, and a finished
match's record lets anyone re-derive the deal with the published check code."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from games import seeding
from games.engine import Rules, new_game
from games.fairness import CHECK_CODE, seed_commitment
from games.models import Match, SeedContribution, Table
from play import selectors, services

from .services_support import make_user, play_out

pytestmark = pytest.mark.django_db

ALICE_VALUE = "a" * 31 + "1"
BOB_VALUE = "b" * 31 + "2"


def check_code() -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(CHECK_CODE, namespace)  # our own published snippet, run as a reader would
    return namespace


def commitment_of_table(table: Table) -> str:
    table.refresh_from_db()
    return seeding.commitment(table.server_seed)


def two_humans_dealt(*, bob_sends: bool = True) -> tuple[Match, str]:
    """Alice opens a table and her page sends a value; Bob sits with his (or without); the deal."""
    alice, bob = make_user("alice"), make_user("bob")
    table = services.table_create(creator=alice, rules=Rules())
    shown = commitment_of_table(table)
    services.seed_contribute(table_id=table.pk, user=alice, value=ALICE_VALUE, commitment=shown)
    services.table_join(
        table_id=table.pk,
        user=bob,
        seed_value=BOB_VALUE if bob_sends else None,
        seed_commitment=shown if bob_sends else None,
    )
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None
    return match, shown


def test_the_deal_seed_is_rederived_from_the_committed_server_seed_and_the_values() -> None:
    match, shown = two_humans_dealt()
    check = check_code()
    assert seed_commitment(match) == shown == check["commitment"](match.server_seed)
    assert match.contributions == [{"seat": 0, "value": ALICE_VALUE}, {"seat": 1, "value": BOB_VALUE}]
    assert match.seed == check["deal_seed"](match.server_seed, [ALICE_VALUE, BOB_VALUE])
    hands, trump = check["deal"](match.seed, 2, match.dealer)
    view = new_game(Rules(), seed=match.seed, dealer=match.dealer).full_view()
    assert [sorted(h) for h in hands] == [sorted(h) for h in view.hands or []]
    assert trump == view.trump_card


def test_a_player_who_sent_nothing_is_dealt_without_and_the_record_says_so() -> None:
    match, _shown = two_humans_dealt(bob_sends=False)
    assert match.status == Match.Status.ACTIVE  # nobody waited for Bob
    assert match.contributions == [
        {"seat": 0, "value": ALICE_VALUE},
        {"seat": 1, "value": None, "missing": True},
    ]
    assert match.seed == check_code()["deal_seed"](match.server_seed, [ALICE_VALUE, ""])


def test_a_value_after_the_deal_is_refused_and_changes_nothing() -> None:
    match, shown = two_humans_dealt(bob_sends=False)
    bob = match.players.get(seat=1).user
    with pytest.raises(services.TableError, match="too late"):
        services.seed_contribute(table_id=match.table_id, user=bob, value=BOB_VALUE, commitment=shown)
    match.refresh_from_db()
    assert match.contributions[1]["value"] is None
    assert not SeedContribution.objects.filter(user=bob).exists()


def test_a_second_value_for_the_same_deal_is_refused() -> None:
    alice = make_user("alice")
    table = services.table_create(creator=alice, rules=Rules())
    shown = commitment_of_table(table)
    services.seed_contribute(table_id=table.pk, user=alice, value=ALICE_VALUE, commitment=shown)
    with pytest.raises(services.TableError, match="already sent"):
        services.seed_contribute(table_id=table.pk, user=alice, value=BOB_VALUE, commitment=shown)
    assert SeedContribution.objects.get(user=alice).value == ALICE_VALUE


def test_the_table_commits_to_a_fresh_server_seed_after_each_deal() -> None:
    match, shown = two_humans_dealt()
    assert commitment_of_table(match.table) != shown
    assert not SeedContribution.objects.filter(table=match.table).exists()


def test_a_table_of_bots_deals_from_the_server_seed_alone() -> None:
    alice = make_user("alice")
    table = services.table_create(creator=alice, rules=Rules(), sit=False)
    services.seats_fill_with_bots(table_id=table.pk, user=alice, level="random")
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None
    assert match.seed == match.server_seed
    assert [entry["value"] for entry in match.contributions] == [None, None]


@pytest.mark.parametrize(
    "value",
    ["", "xyz", "A" * 32, "a" * 33, "a" * 31, "a" * 10_000, "<script>", "a" * 31 + "\n", "０" * 32],
)
def test_a_malformed_value_is_refused_before_anything(client: Client, value: str) -> None:
    alice = make_user("alice")
    table = services.table_create(creator=alice, rules=Rules())
    client.force_login(alice)
    url = reverse("games:seed_contribute", args=[table.pk])
    response = client.post(url, {"seed_value": value, "seed_commitment": commitment_of_table(table)})
    assert response.status_code == 400 and response.json()["ok"] is False
    assert not SeedContribution.objects.exists()


def test_bad_requests_to_the_value_endpoint_are_never_a_500(client: Client) -> None:
    alice, eve = make_user("alice"), make_user("eve")
    table = services.table_create(creator=alice, rules=Rules())
    url = reverse("games:seed_contribute", args=[table.pk])
    assert client.post(url, {"seed_value": ALICE_VALUE}).status_code == 302  # to the login
    client.force_login(eve)
    answers = [
        client.post(url, {"seed_value": ALICE_VALUE, "seed_commitment": commitment_of_table(table)}),
        client.post(url, {}),
        client.post(url, {"seed_value": ALICE_VALUE, "seed_commitment": "0" * 64}),
        client.post(reverse("games:seed_contribute", args=[999_999]), {"seed_value": ALICE_VALUE}),
        client.get(url),
    ]
    # Well-formed values no deal awaits from Eve are answered without an error status (her page did
    # nothing wrong: no failed request in its console); a malformed request is a 400.
    assert [r.status_code for r in answers] == [200, 400, 200, 400, 405]
    assert answers[0].json() == {"ok": False, "awaited": False, "error": "You do not sit at this table."}
    assert not SeedContribution.objects.exists()


def test_a_late_or_second_value_is_answered_as_not_awaited(client: Client) -> None:
    alice = make_user("alice")
    table = services.table_create(creator=alice, rules=Rules())
    client.force_login(alice)
    url = reverse("games:seed_contribute", args=[table.pk])
    fields = {"seed_value": ALICE_VALUE, "seed_commitment": commitment_of_table(table)}
    assert client.post(url, fields).json() == {"ok": True}
    second = client.post(url, fields)
    late = client.post(url, {**fields, "seed_commitment": "0" * 64})
    assert (second.status_code, second.json()["awaited"]) == (200, False)
    assert (late.status_code, late.json()["awaited"]) == (200, False)
    assert "too late" in late.json()["error"]
    assert SeedContribution.objects.get().value == ALICE_VALUE


def test_a_join_with_a_malformed_value_is_refused_and_seats_nobody() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    table = services.table_create(creator=alice, rules=Rules())
    with pytest.raises(services.TableError):
        services.table_join(table_id=table.pk, user=bob, seed_value="nope", seed_commitment="x")
    assert table.seats.count() == 1


def test_nobody_sees_a_value_or_the_server_seed_before_the_match_is_over(client: Client) -> None:
    match, shown = two_humans_dealt()
    alice = match.players.get(seat=0).user
    bob = match.players.get(seat=1).user
    client.force_login(bob)
    pages = [
        client.get(reverse("games:match", args=[match.pk])).content.decode(),
        client.get(reverse("games:table", args=[match.table_id])).content.decode(),
        client.get(reverse("games:lobby")).content.decode(),
    ]
    client.force_login(alice)
    pages.append(client.get(reverse("games:match", args=[match.pk])).content.decode())
    for page in pages:
        assert ALICE_VALUE not in page and BOB_VALUE not in page
        assert match.server_seed not in page and match.seed not in page
    assert shown in pages[0]  # the commitment is what everyone sees


def test_a_finished_match_page_and_export_rederive_the_deal(client: Client) -> None:
    match, _shown = two_humans_dealt(bob_sends=False)
    play_out(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    page = client.get(reverse("match_record", args=[match.pk])).content.decode()
    assert ALICE_VALUE in page and match.server_seed in page
    (snippet,) = re.findall(r'<pre class="code"[^>]*><code>(assert commitment.*?)</code>', page, re.S)
    namespace = check_code()
    exec(html.unescape(snippet), namespace)  # the page's lines as a reader pastes them
    start = new_game(Rules(), seed=match.seed, dealer=match.dealer).full_view()
    assert [sorted(h) for h in namespace["hands"]] == [sorted(h) for h in start.hands or []]

    data = json.loads(client.get(reverse("match_export", args=[match.pk])).content)
    check = check_code()
    values = [entry["value"] or "" for entry in data["contributions"]]
    assert check["commitment"](data["server_seed"]) == data["commitment"]
    assert check["deal_seed"](data["server_seed"], values) == data["seed"]
    assert data["contributions"][1].get("missing") is True


def test_the_fair_page_example_runs() -> None:
    page = Client().get(reverse("fair")).content.decode()
    blocks = re.findall(r'<pre class="code"[^>]*><code>(.*?)</code>', page, re.S)
    namespace = check_code()
    exec(html.unescape(blocks[1]).replace("print(hands, trump)", ""), namespace)
    assert len(namespace["hands"]) == 2


@given(
    server_seed=st.text(alphabet="0123456789abcdef", min_size=32, max_size=32),
    values=st.lists(st.sampled_from(["", ALICE_VALUE, BOB_VALUE]), min_size=2, max_size=6),
)
def test_the_published_derivation_is_the_one_the_site_deals_with(server_seed: str, values: list[str]) -> None:
    check = check_code()
    assert check["deal_seed"](server_seed, values) == seeding.deal_seed(server_seed, values)
    assert check["commitment"](server_seed) == seeding.commitment(server_seed)


def test_a_finished_match_page_asks_its_players_browsers_for_the_next_deal(client: Client) -> None:
    """A tournament's games are dealt by the site, not by a form: the page of a match that is over
    at such a table carries the next deal's commitment for the players' browsers to send to."""
    match, _shown = two_humans_dealt()
    Table.objects.filter(pk=match.table_id).update(managed=True)
    alice = match.players.get(seat=0).user
    client.force_login(alice)
    url = reverse("games:seed_contribute", args=[match.table_id])
    assert url not in client.get(reverse("games:match", args=[match.pk])).content.decode()  # in play
    play_out(match)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert f'data-seed-url="{url}" data-seed-commitment="{commitment_of_table(match.table)}"' in page
    assert client.get(reverse("games:match", args=[match.pk])).status_code == 200
    spectator = Client()
    assert url not in spectator.get(reverse("games:match", args=[match.pk])).content.decode()


def test_a_finished_game_page_sends_no_value_where_no_deal_awaits_it(client: Client) -> None:
    """A page left open on a finished game sends nothing on its own: at an ordinary table the
    value goes with "play again" (or when the full table asks for it), and a closed tournament
    table deals nothing more."""
    match, _shown = two_humans_dealt()
    play_out(match)
    client.force_login(match.players.get(seat=0).user)
    url = reverse("games:seed_contribute", args=[match.table_id])
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert url not in page and 'data-seed-commitment="' in page  # the "play again" form carries it
    Table.objects.filter(pk=match.table_id).update(managed=True, status=Table.Status.CLOSED)
    assert url not in client.get(reverse("games:match", args=[match.pk])).content.decode()
