"""The strength harness: its statistics and a couple of quick games (no strength measured)."""

from __future__ import annotations

import json

import pytest

from games.engine import Rules
from tools.bot_matches import PlayedGame, main, play_pair, run, summarise


def _pair(a_score: float, b_score: float) -> list[PlayedGame]:
    def game(score: float, a_seats: list[int]) -> PlayedGame:
        b_seat = 1 - a_seats[0]
        losers = [] if score == 0.5 else ([b_seat] if score == 1.0 else a_seats)
        return PlayedGame(score, a_seats, losers, {"a": [1.0, 3.0], "b": [2.0]})

    return [game(a_score, [0]), game(b_score, [1])]


def test_summary_statistics() -> None:
    pairs = [_pair(1.0, 1.0), _pair(1.0, 0.0), _pair(0.5, 1.0), _pair(1.0, 1.0)]
    r = summarise("x", "y", 2, pairs)
    assert r["games"] == 8
    assert r["a_score"] == pytest.approx(6.5 / 8)
    assert r["ci_low"] < r["a_score"] < r["ci_high"] <= 1.0
    assert r["elo_diff"] > 0
    assert r["a_nonfool"] == pytest.approx(7 / 8)  # one loss, one draw (not a fool)
    assert r["a_ms_median"] == 2.0 and r["a_ms_max"] == 3.0


def test_even_scores_give_zero_elo() -> None:
    r = summarise("x", "y", 2, [_pair(1.0, 0.0), _pair(0.0, 1.0)])
    assert r["a_score"] == 0.5 and r["elo_diff"] == 0.0


def test_mirrored_games_swap_the_seats() -> None:
    first, second = play_pair((Rules(), "mirror", "easy", "random", None, None))
    assert first.a_seats == [0] and second.a_seats == [1]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules.for_variant("perevodnoy", players=4), Rules.for_variant("circle", players=3)],
    ids=["podkidnoy-2", "perevodnoy-4", "circle-3"],
)
def test_a_short_match_runs(rules: Rules) -> None:
    r = run("easy", "random", 2, rules, seed=1)
    assert r["games"] == 2 and 0.0 <= r["a_score"] <= 1.0


def test_the_search_bots_get_rules_and_history() -> None:
    r = run("strong", "easy", 2, Rules(), seed=1, strong_ms=3)
    assert r["a_ms_median"] > 0


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "easy", "--b", "random", "--games", "4", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {
        "a",
        "b",
        "games",
        "a_score",
        "ci_low",
        "ci_high",
        "elo_diff",
        "a_ms_median",
        "a_ms_max",
    }
