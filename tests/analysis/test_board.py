"""The analysis board (issue 40, §3): the editor's refusals in both languages, play on, undo and
share round trips, a finished match's step opened and a live match's refused, the limits."""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import parse_qsl

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from analysis.board import BoardRefused, editor_position, read_board
from games.engine import POSITION_REFUSALS, GameState, Rules
from games.models import Match
from tests.ratings.builders import finished_match, make_users

START = "podkidnoy trump=6D hands=9S,AC,7H/8C,10D,6H attacker=0"

EDITOR = {
    "variant": "podkidnoy",
    "deck": "36",
    "jokers": "0",
    "trump": "6D",
    "hand0": "9S AC 7H",
    "hand1": "8C 10D 6H",
    "stock": "",
    "discard": "",
    "table": "",
}


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    cache.clear()


def _editor(**changes: str) -> str:
    fields = {**EDITOR, **changes}
    return editor_position(
        variant=fields["variant"],
        deck=int(fields["deck"]),
        jokers=int(fields["jokers"]),
        hands=[fields.get(f"hand{n}", "") for n in range(6)],
        trump=fields["trump"],
        stock=fields["stock"],
        discard=fields["discard"],
        table=fields["table"],
    )


#: Each table refusal the editor can reach (by its code), the fields that reach it, and its
#: sentence in English and in Russian.
REFUSALS = [
    ("players", {"hand1": ""}, "a table seats 2 to 6 players, not 1", "за столом от 2 до 6 игроков"),
    ("circle_deck", {"variant": "circle"}, "circle is played with the 52-card deck", "52"),
    (
        "six_each",
        {"deck": "24", **{f"hand{n}": f"{r}S" for n, r in enumerate(["9", "10", "J", "Q", "K", "A"])}},
        "cannot deal six",
        "шесть",
    ),
    ("jokers_variant", {"jokers": "2"}, "jokers are played only in circle", "джокер"),
]


@pytest.mark.parametrize(("code", "fields", "english", "russian"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_each_table_refusal_the_editor_reaches_says_the_engines_sentence(
    code: str, fields: dict[str, str], english: str, russian: str
) -> None:
    with pytest.raises(Exception) as caught:
        Rules.for_variant(
            fields.get("variant", "podkidnoy"),
            sum(1 for n in range(6) if {**EDITOR, **fields}.get(f"hand{n}")),
            deck=int(fields.get("deck", "36")),
            jokers=int(fields.get("jokers", "0")),
        )
    assert getattr(caught.value, "code", None) == code
    with translation.override("en"), pytest.raises(BoardRefused) as en:
        _editor(**fields)
    assert en.value.message.startswith("This table is not possible") and english in en.value.message
    with translation.override("ru"), pytest.raises(BoardRefused) as ru:
        _editor(**fields)
    assert russian in ru.value.message.lower() and ru.value.message != en.value.message


#: Position refusals the editor reaches (by the engine's code), the fields that reach them, and
#: the sentence in English and in Russian (cards stay in the notation they were typed in).
REFUSED_POSITIONS = [
    ("two_places", {"hand1": "9S 10D"}, "9S is in two places", "9S лежит в двух местах"),
    ("not_a_card", {"hand1": "8C XX"}, "'XX' is not a card", "«XX» — не карта"),
    ("not_in_deck", {"hand1": "2S 8C"}, "2S is not in this table's deck", "2S нет в колоде этого стола"),
    ("stock_trump", {"stock": "7C 8D"}, "the stock's last card", "последняя карта колоды"),
    (
        "joker_trump",
        {"variant": "circle", "deck": "52", "jokers": "2", "trump": "RJ"},
        "a joker cannot be the trump card",
        "джокер не может быть козырной картой",
    ),
]


@pytest.mark.parametrize(
    ("code", "fields", "english", "russian"), REFUSED_POSITIONS, ids=[r[0] for r in REFUSED_POSITIONS]
)
def test_each_position_refusal_the_editor_reaches_is_said_in_the_pages_language(
    code: str, fields: dict[str, str], english: str, russian: str
) -> None:
    assert code in POSITION_REFUSALS
    with translation.override("en"), pytest.raises(BoardRefused) as en:
        _editor(**fields)
    assert en.value.message.startswith("This position is not possible: ") and english in en.value.message
    with translation.override("ru"), pytest.raises(BoardRefused) as ru:
        _editor(**fields)
    assert ru.value.message.startswith("Такая позиция невозможна: ") and russian in ru.value.message
    assert english not in ru.value.message


def test_a_pasted_position_is_refused_in_russian_on_the_russian_page(client: Client) -> None:
    page = client.get(
        reverse("analysis:board"),
        {"position": "podkidnoy trump=6D hands=6S/7S attacker=2"},
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert page.status_code == 200
    assert page.context["error"] == "Такая позиция невозможна: нет места 2."


def test_the_editor_page_refuses_on_the_page_and_opens_a_good_position(client: Client) -> None:
    refused = client.post(reverse("analysis:editor"), {**EDITOR, "hand1": ""}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert "a table seats 2 to 6 players, not 1" in refused.content.decode()
    opened = client.post(reverse("analysis:editor"), EDITOR, follow=True)
    assert opened.status_code == 200 and b"data-move=" in opened.content
    assert opened.context["board"].position == _editor()


def test_play_on_undo_and_share_round_trip(client: Client) -> None:
    board = read_board(START, [])
    seat, notation, link = board.moves()[0]
    page = client.get(reverse("analysis:board") + link)
    assert page.status_code == 200
    played = page.context["board"]
    assert played.line == (f"{seat}:{notation}",)
    expected = GameState.from_position(START)
    expected.apply(seat, expected.legal_actions(seat)[0])
    assert played.position == expected.position()
    # undo: the line without its last move is the start again
    undone = client.get(reverse("analysis:board") + played.undo()).context["board"]
    assert undone.line == () and undone.position == GameState.from_position(START).position()
    # share: the current position alone opens the same board for anyone
    shared = Client().get(reverse("analysis:board") + played.share()).context["board"]
    assert shared.position == played.position and shared.line == ()
    assert dict(parse_qsl(played.share()[1:]))["position"] == played.position


@pytest.mark.parametrize(
    "query",
    [
        {"position": "nonsense"},
        {"position": START, "m": "0:fly away"},
        {"position": START, "m": "9:take"},
        {"position": START, "m": "x"},
        {"position": START, "m": "1:attack 8C"},
        {"position": "podkidnoy " + "x" * 3000},
    ],
)
def test_bad_input_is_said_on_the_page_never_a_500(client: Client, query: dict[str, str]) -> None:
    page = client.get(reverse("analysis:board"), query)
    assert page.status_code == 200 and page.context["error"]


@pytest.mark.django_db
def test_a_finished_matchs_step_opens_and_a_live_matchs_is_refused(client: Client) -> None:
    users = make_users(2, prefix="ab")
    rules = Rules.for_variant("podkidnoy", players=2)
    match = finished_match(users, rules, seed="ab", rng=random.Random(1))
    page = client.get(reverse("analysis:board"), {"match": match.pk, "step": 3})
    assert page.status_code == 200 and page.context["board"].line == ()
    position = page.context["board"].position
    history = client.get(reverse("match_record", args=[match.pk]))
    assert f"/analysis/?match={match.pk}&amp;step=0" in history.content.decode()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ACTIVE)
    refused = client.get(reverse("analysis:board"), {"match": match.pk, "step": 3})
    assert refused.status_code == 404 and "board" not in refused.context
    assert position.split()[2] not in refused.content.decode()  # its hands= token: no card shown


def test_a_client_over_the_board_limit_is_refused_before_any_reading(client: Client, settings: Any) -> None:
    settings.ANALYSIS_BOARD_RATE = (2, 60)
    for _ in range(8):
        assert client.get(reverse("analysis:board"), {"position": START}).status_code == 200
    assert client.get(reverse("analysis:board"), {"position": START}).status_code == 429
