"""The puzzle page: solving as a visitor, a rated failure, the engine's refusal, no 500."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

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
