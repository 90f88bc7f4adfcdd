"""``games.words``: what the engine awaits, said in the viewer's language. The words are marked
where they are listed and translated when one is asked for (every push draws a badge for each
seat), so each code must still come out translated, and an unknown code as the generic word.
Why the engine refuses a position's text is said by its code in both languages too."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.engine import POSITION_REFUSALS, PositionError
from games.engine.phases import THROW_IN_CODES
from games.words import AWAITING_WORDS, YOUR_MOVE_WORDS, awaiting_words, position_message, your_move_words


@pytest.mark.parametrize("code", [*AWAITING_WORDS, "beat_or_take_someday"])
def test_every_awaited_code_is_said_in_russian_and_english(code: str) -> None:
    with translation.override("en"):
        badge, status = awaiting_words(code), your_move_words(code)
    with translation.override("ru"):
        badge_ru, status_ru = awaiting_words(code), your_move_words(code)
    assert badge and status and badge_ru and status_ru
    assert badge_ru != badge and status_ru != status
    if code not in AWAITING_WORDS:
        assert (badge, status) == ("to move", "Your move")
    if code == "lead":
        assert (badge_ru, status_ru) == ("ходит", "Ваш ход: заходите")


def test_nothing_awaited_has_no_badge_and_every_throw_in_code_has_words() -> None:
    assert awaiting_words("") == ""
    assert set(THROW_IN_CODES) <= set(AWAITING_WORDS) == set(YOUR_MOVE_WORDS)


@pytest.mark.parametrize("code", POSITION_REFUSALS)
def test_every_position_refusal_is_said_in_english_and_russian(code: str) -> None:
    """Each declared refusal of a position's text has its Russian sentence, filled with the same
    params (cards and tokens in the notation), so a Russian page never shows an English reason."""
    params = {name: "6S" for name in re.findall(r"%\((\w+)\)s", POSITION_REFUSALS[code].template)}
    error = PositionError.of(code, **params)
    with translation.override("en"):
        english = position_message(error)
    with translation.override("ru"):
        russian = position_message(error)
    assert english == f"This position is not possible: {error}."
    assert russian.startswith("Такая позиция невозможна: ") and str(error) not in russian
    assert all(str(value) in russian for value in params.values())
