"""The puzzle page: solving as a visitor, a rated failure, the engine's refusal, no 500; the page,
its themes, its moves and its refusals in English and Russian."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from puzzles.models import Attempt, Puzzle, PuzzleRating
from tests.play.services_support import make_user
from tests.puzzles.support import seeded_matches

pytestmark = pytest.mark.django_db


def test_solve_fail_and_refusals() -> None:
    cache.clear()
    users = [make_user(name) for name in ("ada", "bo", "cy")]
    seeded_matches(users)
    call_command("mine_puzzles")
    puzzle = Puzzle.objects.order_by("pk").first()
    assert puzzle is not None
    visitor = Client()
    assert visitor.get(reverse("puzzles:next")).status_code == 302
    assert visitor.get(reverse("puzzles:detail", args=[puzzle.pk])).status_code == 200
    move = reverse("puzzles:move", args=[puzzle.pk])
    assert visitor.post(move, {"move": "nonsense"}).status_code == 400
    assert visitor.post(move, {"move": "cover 6S>AH"}).status_code == 400
    for step in puzzle.steps:
        html = visitor.post(move, {"move": step["accept"][0]}).content.decode()
    assert "Solved" in html
    player = Client()
    player.force_login(users[0])
    player.get(reverse("puzzles:detail", args=[puzzle.pk]))
    wrong = next(text for text in ("take", "pass") if text not in puzzle.steps[0]["accept"])
    response = player.post(move, {"move": wrong})
    assert response.status_code in (200, 400)
    if response.status_code == 200:
        assert Attempt.objects.get(user=users[0]).solved is False
        assert PuzzleRating.objects.get(user=users[0]).rating < 1500
    player.cookies["django_language"] = "ru"
    assert player.get(reverse("home")).status_code == 200


#: Each theme as the page names it, in English and in Russian.
THEME_WORDS = {
    "transfer": ("transfer", "перевод"),
    "throw_in": ("throw-in", "подкидывание"),
    "saving_trump": ("saving a trump", "сбережённый козырь"),
    "taking": ("taking on purpose", "взять нарочно"),
    "endgame": ("endgame", "эндшпиль"),
}


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Puzzle ", "Trump:", "find the line", "Log in to have your attempts rated.")),
        ("ru", ("Задача ", "Козырь:", "найдите продолжение", "Войдите, чтобы ваши попытки шли в рейтинг.")),
    ],
)
def test_the_page_its_themes_moves_and_refusals_speak_the_reader_language(
    language: str, words: tuple[str, ...]
) -> None:
    """The page, the themes, the move buttons (words, posting notation) and a refusal are in the
    reader's language; the wrong move's sentence and the right line too."""
    cache.clear()
    users = [make_user(name) for name in ("ada", "bo", "cy")]
    seeded_matches(users)
    call_command("mine_puzzles")
    puzzle = Puzzle.objects.order_by("pk").first()
    assert puzzle is not None
    visitor = Client()
    visitor.cookies["django_language"] = language
    html = visitor.get(reverse("puzzles:detail", args=[puzzle.pk])).content.decode()
    for word in words:
        assert word in html
    index = 0 if language == "en" else 1
    for theme in puzzle.themes:
        assert THEME_WORDS[theme][index] in html
    # A button posts the notation and says the move in words.
    first = puzzle.steps[0]["play"]
    assert f'value="{escape(first)}"' in html
    assert f">{escape(first)}<" not in html
    move = reverse("puzzles:move", args=[puzzle.pk])
    refusal = visitor.post(move, {"move": "nonsense"})
    assert refusal.status_code == 400
    expected = "That is not a move." if language == "en" else "Это не ход."
    assert expected in refusal.content.decode()
    wrong = next(text for text in ("take", "pass") if text not in puzzle.steps[0]["accept"])
    response = visitor.post(move, {"move": wrong})
    answer = response.content.decode()
    if response.status_code == 400:  # illegal here: the engine's own sentence, in the language
        sentence = re.search(r'class="puzzle-feedback__refusal">([^<]+)<', answer)
        assert sentence is not None
        assert bool(re.search("[а-я]", sentence.group(1))) is (language == "ru")
    else:  # legal but losing: the right line, said in words
        assert response.status_code == 200
        failed = "loses. The right line:" if language == "en" else "проигрывает. Верное продолжение:"
        assert failed in answer
