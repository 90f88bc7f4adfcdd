"""Provably fair deals (issue 5): the few lines of Python printed on /fair/ check a finished
match's commitment and reproduce its deal exactly, with nothing but ``hashlib``."""

from __future__ import annotations

import dataclasses
import html
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import Rules, card_str, new_game
from games.fairness import CHECK_CODE, commitment_of, seed_commitment
from games.models import Match
from tests.ratings.builders import finished_match, make_users


def revealed_seed(match: Match) -> str | None:
    """The seed, once the match is over (finished or aborted); ``None`` while it runs."""
    return None if match.is_active else match.seed


pytestmark = pytest.mark.django_db


def run_check_code() -> dict[str, Any]:
    """Execute the page's code as a reader would paste it."""
    namespace: dict[str, Any] = {}
    exec(CHECK_CODE, namespace)  # the code under test is our own published snippet
    return namespace


@pytest.mark.parametrize(("players", "deck"), [(2, 36), (3, 36), (4, 52), (6, 36), (2, 24)])
def test_the_published_code_deals_what_the_engine_dealt(players: int, deck: int) -> None:
    check = run_check_code()
    for n in range(20):
        seed = f"fair-{players}-{deck}-{n}"
        dealer = n % players
        state = new_game(Rules(players=players, deck=deck), seed=seed, dealer=dealer)
        hands, trump = check["deal"](seed, players, dealer, deck)
        view = state.full_view()
        assert view.hands is not None
        assert [sorted(hand) for hand in hands] == [sorted(hand) for hand in view.hands]
        assert trump == view.trump_card


@pytest.mark.parametrize("jokers", [0, 2])
def test_the_published_circle_deal_lays_out_the_circle_centre_and_stock_the_engine_did(jokers: int) -> None:
    """Jokers come after the A♥ before the shuffle; one turned up for the centre joins the circle
    (seeds are searched until that happened, so the rule is exercised, not only described)."""
    check = run_check_code()
    rules = dataclasses.replace(Rules.for_variant("circle", players=3), jokers=jokers)
    assert check["deck"](52, jokers)[51:] == ["AH", "RJ", "BJ"][: 1 + jokers]
    longer = 0
    for n in range(400):
        seed = f"circle-{jokers}-{n}"
        circle, centre, stock = check["deal_circle"](seed, jokers)
        view = new_game(rules, seed=seed, dealer=0).full_view()
        # Before the first choice only forced steps ran: drawn cards that beat nothing, each
        # joining the circle in the stock's order.
        assert view.circle[: len(circle)] == circle and centre == view.trump_card
        joined = view.circle[len(circle) :]
        assert joined == stock[: len(joined)]
        assert sorted([*circle, centre, *stock]) == sorted(check["deck"](52, jokers))
        longer += len(circle) > 8
        if n >= 40 and (longer or not jokers):
            break
    assert (longer > 0) == bool(jokers)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("come after the A♥ before the shuffle", "a joker there joins the circle")),
        ("ru", ("до тасовки за A♥ идут красный джокер", "такой джокер уходит в круг")),
    ],
)
def test_the_fair_page_says_where_the_jokers_go_in_a_circle_deck(
    client: Client, language: str, words: tuple[str, str]
) -> None:
    page = html.unescape(client.get(reverse("fair"), headers={"accept-language": language}).content.decode())
    assert all(part in page for part in words)
    assert "def deal_circle(seed, jokers=0)" in page


def test_a_finished_match_reveals_a_seed_that_matches_its_commitment(client: Client) -> None:
    check = run_check_code()
    users = make_users(2, prefix="fair")
    match = finished_match(users, Rules(), seed="0f3c9a1b2d4e5f60718293a4b5c6d7e8", rng=random.Random(1))
    page = client.get(reverse("match_record", args=[match.pk])).content.decode()
    commitment = seed_commitment(match)
    assert commitment in page and match.seed in page
    assert (
        check["legacy_commitment"](match.pk, revealed_seed(match))
        == commitment
        == commitment_of(match.pk, match.seed)
    )
    hands, trump = check["deal"](match.seed, 2, match.dealer)
    start = new_game(Rules(), seed=match.seed, dealer=match.dealer)
    assert {card for hand in hands for card in hand} == {
        card_str(c) for seat in range(2) for c in range(54) if start.hands[seat] >> c & 1
    }
    assert trump == start.full_view().trump_card


def test_the_seed_stays_secret_while_the_match_runs() -> None:
    users = make_users(2, prefix="live")
    match = finished_match(users, Rules(), seed="secret", rng=random.Random(2))
    match.status = match.Status.ACTIVE
    assert revealed_seed(match) is None
    assert seed_commitment(match) != "secret" and len(seed_commitment(match)) == 64


def test_the_fair_page_prints_the_checked_code(client: Client) -> None:
    html = client.get(reverse("fair")).content.decode()
    assert "def shuffle(cards, seed)" in html and "hashlib.sha256" in html


def test_the_match_page_line_checks_its_own_deal(client: Client) -> None:
    """The ready-made lines on a finished match's page run against the published code."""
    users = make_users(3, prefix="line")
    rules = Rules.for_variant("podkidnoy", players=3)
    match = finished_match(users, rules, seed="line-seed", rng=random.Random(3))
    page = client.get(reverse("match_record", args=[match.pk])).content.decode()
    code = r'<div class="record-grid">.*?<pre class="code"[^>]*><code>(.*?)</code>'
    (snippet,) = re.findall(code, page, re.S)
    namespace = run_check_code()
    exec(html.unescape(snippet), namespace)  # the lines as a reader would paste them
    start = new_game(rules, seed=match.seed, dealer=match.dealer).full_view()
    assert [sorted(hand) for hand in namespace["hands"]] == [sorted(hand) for hand in start.hands or []]
    assert namespace["trump"] == start.trump_card
