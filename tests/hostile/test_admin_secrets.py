"""The admin keeps a match's secrets while it is played, from superusers too (staff play as well).

Every admin page that can reach a match in play is fetched by a superuser: none may contain the
seed, the snapshot or any card still in a hand or the stock; no query-string lookup may filter on
the seed or the snapshot. Once the match is over the seed and the snapshot are shown.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Match, Move
from tests.play.services_support import make_user, play_default, play_out, start_match, state_of

pytestmark = pytest.mark.django_db

SEED = "admin-secret-seed-0f9e8d7c6b5a"


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: SEED)


@pytest.fixture
def superuser_client(client: Client) -> Client:
    root = User.objects.create_superuser(username="root", password=None, display_name="Root")
    client.force_login(root)
    return client


@pytest.fixture
def active_match(seeded: None) -> Match:
    match = start_match(humans=[make_user("alice"), make_user("bob")])
    play_default(match)  # one public move in the log
    return match


def hidden_cards(match: Match) -> set[str]:
    """Every card the match keeps secret now: each hand and the stock (less its face-up trump)."""
    snapshot = state_of(match).to_json()
    cards = {card for hand in snapshot["hands"] for card in hand} | set(snapshot["stock"])
    return cards - {snapshot["trump_card"]}


def assert_no_secret(page: str, match: Match) -> None:
    assert SEED not in page
    for word in ("hands", "stock", *hidden_cards(match)):
        for quoted in (f'"{word}"', f"&quot;{word}&quot;", f"'{word}'", f"&#x27;{word}&#x27;"):
            assert quoted not in page, word


def admin_pages(match: Match) -> list[str]:
    move = Move.objects.filter(match=match).first()
    assert move is not None
    return [
        reverse("admin:games_match_changelist"),
        reverse("admin:games_match_change", args=[match.pk]),
        reverse("admin:games_match_history", args=[match.pk]),
        reverse("admin:games_match_delete", args=[match.pk]),
        reverse("admin:games_move_changelist") + f"?match__id__exact={match.pk}",
        reverse("admin:games_move_change", args=[move.pk]),
        reverse("admin:games_table_change", args=[match.table_id]),
        reverse("admin:games_table_delete", args=[match.table_id]),
    ]


def test_no_admin_page_of_a_match_in_play_shows_a_hand_or_the_seed(
    superuser_client: Client, active_match: Match
) -> None:
    for path in admin_pages(active_match):
        response = superuser_client.get(path)
        assert response.status_code == 200, path
        assert_no_secret(response.content.decode(), active_match)


def test_the_page_of_a_match_in_play_says_its_secrets_are_hidden(
    superuser_client: Client, active_match: Match
) -> None:
    page = superuser_client.get(reverse("admin:games_match_change", args=[active_match.pk])).content.decode()
    assert "Hidden while the match is played" in page


@pytest.mark.parametrize(
    "lookup",
    ["seed__startswith", "seed", "snapshot__contains", "snapshot__hands__0__0", "seed__regex"],
)
def test_the_match_list_cannot_filter_on_a_secret(
    superuser_client: Client, active_match: Match, lookup: str
) -> None:
    response = superuser_client.get(reverse("admin:games_match_changelist"), {lookup: SEED[:1]})
    assert response.status_code == 400


@pytest.mark.parametrize(
    ("name", "lookup"),
    [("games_move_changelist", "match__seed__startswith"), ("games_table_changelist", "matches__seed")],
)
def test_related_lists_cannot_filter_on_a_secret_either(
    superuser_client: Client, active_match: Match, name: str, lookup: str
) -> None:
    response = superuser_client.get(reverse(f"admin:{name}"), {lookup: SEED[:1]})
    assert response.status_code == 400


def test_the_admin_cannot_edit_a_match(superuser_client: Client, active_match: Match) -> None:
    response = superuser_client.post(
        reverse("admin:games_match_change", args=[active_match.pk]), {"last_seq": "0", "deadline_at": ""}
    )
    assert response.status_code == 403


def test_a_finished_match_shows_its_seed_and_snapshot(superuser_client: Client, active_match: Match) -> None:
    finished = play_out(active_match)
    assert finished.status == Match.Status.FINISHED
    page = superuser_client.get(reverse("admin:games_match_change", args=[finished.pk])).content.decode()
    assert SEED in page
    assert "&quot;hands&quot;" in page
    assert json.dumps(finished.rules["variant"]) in page or finished.rules["variant"] in page
