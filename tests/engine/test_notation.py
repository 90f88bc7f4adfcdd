"""The canonical notation: cards (``6S``, ``10H``, ``AD``, ``RJ``/``BJ``) and actions
round-trip, and bad text is refused with a clear ``NotationError``."""

from __future__ import annotations

import pytest

from games.engine import (
    BLACK_JOKER,
    RED_JOKER,
    Action,
    NotationError,
    card_from_str,
    card_label,
    card_str,
)
from games.engine.cards import make_card


def test_every_card_round_trips() -> None:
    for card in range(54):
        assert card_from_str(card_str(card)) == card


def test_a_player_may_write_a_card_in_lower_case_and_with_spaces() -> None:
    """Canonical names are looked up (a snapshot's cards); any other spelling is parsed."""
    for card in range(54):
        text = card_str(card)
        assert card_from_str(text.lower()) == card_from_str(f" {text} ") == card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("6S", 6, 0), ("10H", 10, 3), ("JD", 11, 2), ("QC", 12, 1), ("KH", 13, 3), ("AD", 14, 2), ("2S", 2, 0)],
)
def test_card_index_is_rank_then_suit(text: str, rank: int, suit: int) -> None:
    assert card_from_str(text) == make_card(rank, suit) == (rank - 2) * 4 + suit


def test_jokers_are_distinct_from_jacks() -> None:
    assert card_from_str("RJ") == RED_JOKER and card_from_str("BJ") == BLACK_JOKER
    assert card_str(RED_JOKER) == "RJ" and card_str(card_from_str("JH")) == "JH"
    assert card_label(BLACK_JOKER) == "black joker"
    assert card_label(card_from_str("10H")) == "10♥"


@pytest.mark.parametrize("bad", ["", "1S", "11H", "6X", "S6", "JJ", "joker", "10"])
def test_bad_cards_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        card_from_str(bad)


@pytest.mark.parametrize(
    "text",
    [
        "attack 6S",
        "attack 6S 6C 6H",
        "cover 7S>6S",
        "cover RJ>AD",
        "transfer 6D",
        "transfer 6S 6D",
        "show 6H",
        "take",
        "pass",
        "redeal",
        "beat 9H>7H",
    ],
)
def test_canonical_actions_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action
    assert Action.from_fast(action.to_fast()) == action


def test_parsing_is_lenient_but_printing_is_canonical() -> None:
    assert str(Action.parse("ATTACK 6h 6s")) == "attack 6S 6H"
    assert str(Action.parse("  cover  7s>6s ")) == "cover 7S>6S"


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("", "empty"),
        ("hit 6S", "unknown action"),
        ("attack", "at least one card"),
        ("cover 7S", "cover 7S>6S"),
        ("take 6S", "names no cards"),
        ("attack 6S 6S", "twice"),
        ("show 6H 6D", "exactly one"),
        ("attack 6Z", "not a card"),
    ],
)
def test_bad_actions_say_why(bad: str, words: str) -> None:
    with pytest.raises(NotationError, match=words):
        Action.parse(bad)


def test_notation_error_is_a_value_error() -> None:
    assert issubclass(NotationError, ValueError)
